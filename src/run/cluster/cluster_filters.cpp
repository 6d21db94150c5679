#include "run/cluster/cluster_filters.hpp"

#include <fnmatch.h>

namespace hwcomm {

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
        host = host || fnmatch(pattern.c_str(), "mpi-host", 0) == 0;
        gpu = gpu || fnmatch(pattern.c_str(), "mpi-gpu", 0) == 0;
        if (pattern.rfind("mpi-", 0) == 0) continue;  // inter-node only
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
