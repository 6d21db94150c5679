#include "platform/mpi/mpi_environment.hpp"

namespace hwcomm {

MpiEnvironment::MpiEnvironment(int* argc, char*** argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) throw UsageError("MPI is already initialised in this process");
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw UsageError("--mpi: MPI_Init_thread failed (run under mpirun?)");
    // A failed call returns its code (mpi_check throws) instead of aborting the job.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiEnvironment::~MpiEnvironment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

}  // namespace hwcomm
