#pragma once
// What `hwcomm topo FILE` prints for a cluster results file (docs/cluster-view.md):
// the nodes with their NICs (from each node's own graph) and the inter-node
// links that were measured, each pair with its best bandwidth. Text, JSON
// (schema hwcomm-cluster-topology) and DOT.
#include <string>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "io/cluster_section.hpp"
#include "report/topo_render.hpp"

namespace hwcomm {

inline constexpr const char* kClusterTopologySchema = "hwcomm-cluster-topology";

// `format` Tree is the text view; Matrix is refused (it is one node's view).
// Throws UsageError for a node whose topology does not parse.
std::string render_cluster_topology(const ResultsFile& file, const ClusterSection& cluster, TopoFormat format);
nlohmann::json cluster_topology_to_json(const ResultsFile& file, const ClusterSection& cluster);

// One node's graph; throws UsageError naming the nodes when `name` is none of
// them, or when that node holds no topology (its rank failed before discovery).
Graph cluster_node_graph(const ClusterSection& cluster, const std::string& name);

}  // namespace hwcomm
