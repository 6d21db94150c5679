#pragma once
// `hwcomm topo --json`: the graph (graph_to_json, schema "hwcomm-topology"),
// plus the nvidia-smi style matrix and the paths between GPUs, RDMA NICs and
// NUMA nodes, and the link classes of those pairs (key "link_classes",
// classes/link_classes.hpp). graph_from_json reads it back (it ignores the
// extra keys).
#include <nlohmann/json.hpp>

#include "core/graph.hpp"

namespace hwcomm {

nlohmann::json topo_to_json(const Graph& graph);

}  // namespace hwcomm
