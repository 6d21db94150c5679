#include "run/cluster/cluster_filters.hpp"

#include <fnmatch.h>

#include "catalog/method_catalog.hpp"
#include "catalog/method_names.hpp"

namespace hwcomm {

namespace {

// Whether the glob names a method of the MPI family / of any other family.
bool matches(const std::string& pattern, bool mpi) {
    for (const MethodRow& row : builtin_catalog().rows())
        if ((row.family == MethodFamily::Mpi) == mpi && fnmatch(pattern.c_str(), row.name.c_str(), 0) == 0) return true;
    return false;
}

}  // namespace

ClusterFilters split_cluster_filters(const std::vector<std::string>& specs) {
    ClusterFilters out;
    bool method_filters = false, local_method_filters = false, host = false, gpu = false;
    for (const std::string& spec : specs) {
        const std::string prefix = "method=";
        if (spec.rfind(prefix, 0) != 0) {
            out.local.push_back(spec);
            continue;
        }
        method_filters = true;
        const std::string pattern = spec.substr(prefix.size());
        host = host || fnmatch(pattern.c_str(), method_name::kMpiHost, 0) == 0;
        gpu = gpu || fnmatch(pattern.c_str(), method_name::kMpiGpu, 0) == 0;
        if (matches(pattern, true) && !matches(pattern, false)) continue;  // inter-node only
        out.local.push_back(spec);
        local_method_filters = true;
    }
    if (method_filters) {
        out.mpi_host = host;
        out.mpi_gpu = gpu;
        out.measure_locally = local_method_filters;
    }
    return out;
}

}  // namespace hwcomm
