#pragma once
// The readable form of `hwcomm topo`: packages, NUMA nodes and the PCIe tree
// below each NUMA node, then NVLink and SMP links, then discovery notes.
#include <ostream>

#include "core/graph.hpp"

namespace hwcomm {

void print_topo_tree(const Graph& graph, std::ostream& out);

}  // namespace hwcomm
