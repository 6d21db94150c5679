#pragma once
// The MPI library a run used, for the cluster section of the results file:
// its version string, the standard it implements, and whether it takes GPU
// pointers (CUDA-aware), with how that was decided.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace hwcomm {

struct MpiLibraryInfo {
    std::string library;   // MPI_Get_library_version, first line
    std::string version;   // "4.1.4" when the library string names one, else ""
    std::string standard;  // MPI_Get_version: "3.1"
    std::optional<bool> cuda_aware;  // nullopt: unknown
    std::string cuda_aware_source;   // "MPIX_Query_cuda_support", "mpi-ext.h: ...", ...
};

MpiLibraryInfo query_mpi_library();
nlohmann::json mpi_library_json(const MpiLibraryInfo& info);

}  // namespace hwcomm
