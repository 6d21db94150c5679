#pragma once
// The readable form of `hwcomm topo`: packages, NUMA nodes and the PCIe tree
// below each NUMA node, then NVLink (grouped per GPU where switches are
// involved), XGMI and SMP links, then discovery notes. PCI functions that
// carry nothing (no disk, NIC or GPU, no bridge to one) are hidden unless `all`.
#include <ostream>

#include "core/graph.hpp"

namespace hwcomm {

void print_topo_tree(const Graph& graph, std::ostream& out, bool all = false);

}  // namespace hwcomm
