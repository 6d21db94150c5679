#pragma once
// --transfers FILE|preset:NAME for list and predict (run has its own order of
// checks): the file read and parsed, or the preset made from the graph, and
// the resolved sets shown as text or JSON.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/transfers/transfer_set_check.hpp"

namespace hwcomm::cli {

// Throws UsageError (one line, naming file and line) for anything malformed.
TransferSetFile load_transfer_sets(const std::string& arg, const Graph& graph);

// Each set with its record key, size and lanes (executor, issuing vertex,
// host memory, peer), then the file in its canonical form.
std::string resolved_sets_text(const TransferSetFile& file, const std::vector<ResolvedSet>& sets);
nlohmann::json resolved_sets_json(const TransferSetFile& file, const std::vector<ResolvedSet>& sets);

}  // namespace hwcomm::cli
