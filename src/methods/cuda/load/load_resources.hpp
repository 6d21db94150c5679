#pragma once
// The shared resources the default load methods (under-load, lane-sweep) start
// from: host-to-GPU and GPU-to-host routes between every host node and CUDA
// GPU (host sides included), and GPU-to-GPU routes with a peer path.
#include <vector>

#include "core/graph.hpp"
#include "methods/under_load.hpp"

namespace hwcomm::cuda {

std::vector<SharedResource> default_load_resources(const Graph& graph);

}  // namespace hwcomm::cuda
