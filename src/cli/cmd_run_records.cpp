#include "cli/cmd_run_records.hpp"

#include <set>

#include "core/error.hpp"
#include "methods/transfers/transfer_set_method.hpp"
#include "run/confirmation_rounds.hpp"
#include "run/cost_model.hpp"
#include "run/plan_estimate.hpp"
#include "run/transfer_plan.hpp"

namespace hwcomm::cli {

void set_transfer_sets(const TransferSetFile& file, RunOptions& options) {
    options.method.transfer_sets = format_transfer_sets(file);
    options.method.transfer_sets_source = file.source;
}

RunPlan transfer_run_plan(const Graph& graph, const Registry& registry, const TransferSetFile& file,
                          const RunOptions& options) {
    const TransferSetMethod* method = find_transfer_set_method(registry);
    if (!method) throw UsageError("--transfers: this build has no transfer-set method");
    RunPlan plan;
    plan.records = build_transfer_plan(registry, resolve_transfer_sets(graph, file, method->live_machine()));
    plan.options = options;
    plan.costs = builtin_cost_model();
    plan.deferred.assign(plan.records.size(), false);
    plan.estimate = estimate_plan(plan.records, options, plan.costs);
    plan.notes.push_back("--transfers " + file.source + ": the file's sets only, one record each");
    return plan;
}

void check_resumed_records(const ResultsFile& results, const std::vector<PlannedRecord>& plan,
                           const std::string& path) {
    std::set<std::string> planned, seen;
    for (const auto& p : plan) {
        if (p.round.empty()) planned.insert(p.key);  // a covered member too: kept when its pair was promoted
        for (const auto& lane : p.round) planned.insert(lane.key);
    }
    for (const auto& r : results.records) {
        if (!planned.count(r.key))
            throw UsageError("--resume: " + path + ": record " + r.key +
                             " is not one this run plans on this machine with the file's options (file untouched)");
        if (!seen.insert(r.key).second)
            throw UsageError("--resume: " + path + ": record " + r.key + " is in the file twice (file untouched)");
    }
}

bool every_planned_record_present(const std::vector<PlannedRecord>& plan, const ResultsFile& results) {
    std::set<std::string> keys;
    for (const auto& r : results.records) keys.insert(r.key);
    for (const auto& p : plan)
        for (const std::string& key : written_keys(p))
            if (!keys.count(key)) return false;
    // A covered member is owed once a record of its pair was promoted.
    for (const auto& p : plan)
        if (p.measured_as == "covered" && !keys.count(p.key) && pair_promoted(results, p.src_id, p.dst_id)) return false;
    return true;
}

}  // namespace hwcomm::cli
