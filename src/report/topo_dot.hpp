#pragma once
// `hwcomm topo --dot`: the graph for Graphviz (undirected; NVLink bold, SMP dashed).
#include <ostream>

#include "core/graph.hpp"

namespace hwcomm {

void print_topo_dot(const Graph& graph, std::ostream& out);

}  // namespace hwcomm
