#pragma once
// Why a method of the catalog has no record in a run (as nvbandwidth v0.10
// says why it skipped a test): not in this build, not applicable to any pair
// or set of this machine, every applicable pair filtered out, or a
// --transfers run, which measures its file's sets only. `hwcomm run` keeps
// the list in meta.run.not_measured; `hwcomm summary` prints it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/plan.hpp"

namespace hwcomm {

struct MethodWithoutRecords {
    std::string method;
    std::string why;
};

std::vector<MethodWithoutRecords> methods_without_records(const Graph& graph, const Registry& registry,
                                                          const Filters& filters,
                                                          const std::vector<PlannedRecord>& plan, bool transfers_run);

// [{"method": ..., "why": ...}, ...]
nlohmann::json methods_without_records_json(const std::vector<MethodWithoutRecords>& list);

}  // namespace hwcomm
