#pragma once
// --filter in a cluster run: method=mpi-* patterns choose the inter-node
// methods; every other spec goes to each node's own plan. With method
// filters that name only mpi-* methods, the nodes measure nothing locally
// (their topology is still recorded).
#include <string>
#include <vector>

namespace hwcomm {

struct ClusterFilters {
    std::vector<std::string> local;  // for Filters on each node
    bool measure_locally = true;
    bool mpi_host = true;
    bool mpi_gpu = true;
};

ClusterFilters split_cluster_filters(const std::vector<std::string>& specs);

}  // namespace hwcomm
