#pragma once
// What a single-node `hwcomm run` measures besides the planner's records: the
// sets of a --transfers file (resolved against this machine before anything
// is written), and the checks of a resumed file's records against the plan.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "io/results_file.hpp"
#include "methods/characterizer.hpp"
#include "methods/transfers/transfer_set.hpp"
#include "run/run_options.hpp"
#include "run/run_planner.hpp"

namespace hwcomm::cli {

// The file's sets in the options, in their canonical text, so --resume measures the same ones.
void set_transfer_sets(const TransferSetFile& file, RunOptions& options);

// Every set resolved against this machine (endpoints, executors, duplicates,
// memory free now) before anything is written; one full record per set, none
// deferred, estimated by the built-in cost model.
RunPlan transfer_run_plan(const Graph& graph, const Registry& registry, const TransferSetFile& file,
                          const RunOptions& options);

// A resumed file holds only records this run plans, once each: a record of
// an endpoint this machine lacks or of a method the options leave out is a
// tampered or foreign file, not progress (UsageError, the file untouched).
void check_resumed_records(const ResultsFile& results, const std::vector<PlannedRecord>& plan,
                           const std::string& path);

bool every_planned_record_present(const std::vector<PlannedRecord>& plan, const ResultsFile& results);

}  // namespace hwcomm::cli
