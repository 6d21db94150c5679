#pragma once
// `hwcomm list --json`: the same enumeration as the text listing, for
// programs: each method with its declarations and the endpoint pairs (or
// sets) it applies to, with their parameter sets.
#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm::cli {

// `all`: also the pairs a method does not apply to, with the reason.
nlohmann::json list_as_json(const Graph& graph, const Registry& registry, bool all);

}  // namespace hwcomm::cli
