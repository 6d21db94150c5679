#include "cli/build_info.hpp"
#include "hwcomm_revision.hpp"

#include <hwloc.h>

#include <string>

namespace hwcomm::cli {

namespace {

// hwloc encodes its API version (not its release) as 0xMMmmrr.
std::string hwloc_api_text(unsigned api) {
    return std::to_string(api >> 16) + "." + std::to_string((api >> 8) & 0xff);
}

std::string cuda_text() {
#ifdef HWCOMM_HAVE_CUDA
    // The runtime travels inside the binary when linked statically: only the
    // driver (libcuda.so.1) and NVML (dlopen'ed) come from the machine.
    return std::string("yes, CUDA runtime ") + HWCOMM_CUDA_VERSION + " linked " + HWCOMM_CUDART_LINK +
           " (needs only the NVIDIA driver at run time)";
#else
    return "no (configured without CUDA: GPU methods are not built)";
#endif
}

// What CMake printed as "MPI cluster mode ON|OFF".
std::string mpi_text() {
#ifdef HWCOMM_HAVE_MPI
    const std::string library = HWCOMM_MPI_LIBRARY;
    return std::string("yes, cluster mode (mpirun ... hwcomm run --mpi), MPI ") + HWCOMM_MPI_VERSION +
           (library.empty() ? "" : ", " + library);
#else
    return "no (configured without MPI: run --mpi is not built; run --plan works)";
#endif
}

}  // namespace

std::string version_text() {
    std::string text = std::string("hwcomm ") + HWCOMM_VERSION + "\n";
    text += std::string("revision:   ") + HWCOMM_GIT_REVISION + "\n";
    text += std::string("build type: ") + HWCOMM_BUILD_TYPE + "\n";
    text += std::string("compiler:   ") + HWCOMM_CXX_COMPILER + "\n";
    text += "CUDA:       " + cuda_text() + "\n";
    text += "NVML:       loaded at run time (dlopen libnvidia-ml.so.1)\n";
    text += std::string("hwloc:      ") + HWCOMM_HWLOC_BUILD_VERSION + " at build time, run-time library API " +
            hwloc_api_text(hwloc_get_api_version()) + "\n";
    text += "MPI:        " + mpi_text();
    return text;
}

}  // namespace hwcomm::cli
