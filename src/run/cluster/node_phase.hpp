#pragma once
// A cluster run's first phase on every rank: this node characterized by the
// engine exactly as `hwcomm run` does (same plan, filters and options), its
// records then qualified with the node name ("node0:gpu1", context.node). A
// rank whose characterization throws keeps what it has, with status "error"
// and one error record of method "rank".
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "methods/characterizer.hpp"
#include "run/progress.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// Test only: the rank whose characterization throws (docs/cluster.md).
inline constexpr const char* kTestFailRankEnv = "HWCOMM_TEST_FAIL_RANK";

struct NodePart {
    ResultsFile results;  // meta, topology, node-qualified records
    std::string status = "ok";  // "ok" | "error"
    std::string error;
};

struct NodePhaseArgs {
    std::string node;
    int rank = 0;
    std::vector<std::string> command_line;
    std::vector<std::string> local_filters;  // --filter specs for this node's methods
    bool measure_locally = true;             // false: the filters chose inter-node methods only
    RecordLine record_line;                  // the log line of each finished record
};

NodePart characterize_node(const Graph& graph, const Registry& registry, const RunOptions& options,
                           const NodePhaseArgs& args);

// The error record a failed rank leaves: method "rank", src = dst = "<node>:host".
Record rank_error_record(const std::string& node, const std::string& error);

// Qualifies every record with the node and notes it in context.node.
void qualify_node_records(ResultsFile& results, const std::string& node);

}  // namespace hwcomm
