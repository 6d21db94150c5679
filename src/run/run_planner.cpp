#include "run/run_planner.hpp"

#include "core/error.hpp"
#include "run/class_plan.hpp"

namespace hwcomm {

RunPlan make_run_plan(const Graph& graph, const Registry& registry, const Filters& filters, const RunOptions& options,
                      CostModel costs, std::optional<double> budget_s) {
    RunPlan plan;
    plan.options = options;
    plan.costs = std::move(costs);
    std::vector<PlannedRecord> records = build_plan(graph, registry, filters, options.method);
    if (records.empty()) throw UsageError("nothing to measure: no method applies to the endpoints the filters select");
    plan.classes = classify(graph, plan_members(records));
    plan.notes = plan.classes.notes;
    plan.records = apply_classes(std::move(records), plan.classes, graph, options.plan.exhaustive, &plan.notes,
                                 options.method.timing != TimingMode::Wall);
    plan.deferred.assign(plan.records.size(), false);
    if (budget_s) {
        plan.budget = fit_budget(plan.records, options, plan.costs, *budget_s);
        plan.options = plan.budget->options;
        plan.deferred = plan.budget->deferred;
    }
    plan.estimate = estimate_plan(plan.records, plan.options, plan.costs, plan.deferred);
    return plan;
}

}  // namespace hwcomm
