#pragma once
// The graph's JSON form: part of `hwcomm topo --json` and of every results file.
#include <nlohmann/json.hpp>

#include "core/graph.hpp"

namespace hwcomm {

inline constexpr const char* kTopologySchema = "hwcomm-topology";
inline constexpr int kTopologySchemaVersion = 1;

nlohmann::json graph_to_json(const Graph& graph);
// Throws std::runtime_error naming the problem when the document is not a topology.
Graph graph_from_json(const nlohmann::json& doc);

}  // namespace hwcomm
