#pragma once
// MPI for the life of one `hwcomm run --mpi`: MPI_Init_thread on
// construction (funneled: only the main thread calls MPI), errors returned
// rather than aborting the job, MPI_Finalize on destruction.
#include "platform/mpi/mpi_error.hpp"

namespace hwcomm {

class MpiEnvironment {
public:
    // Throws UsageError when MPI is already initialised or cannot start.
    MpiEnvironment(int* argc, char*** argv);
    ~MpiEnvironment();
    MpiEnvironment(const MpiEnvironment&) = delete;
    MpiEnvironment& operator=(const MpiEnvironment&) = delete;
};

}  // namespace hwcomm
