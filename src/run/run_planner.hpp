#pragma once
// Everything `hwcomm run` decides before measuring (issue 21, items 1-4): the
// records (methods x endpoints x parameter sets, filtered), their link classes
// and roles (representatives first), the estimate from the cost model, and,
// with a budget, the steps that fit the plan into it. `hwcomm run --plan`
// prints this; `hwcomm run` stores it in meta.plan and measures it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "classes/link_classes.hpp"
#include "run/budget.hpp"
#include "run/cost_model.hpp"
#include "run/plan.hpp"
#include "run/plan_estimate.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

struct RunPlan {
    std::vector<PlannedRecord> records;  // in measuring order
    ClassMap classes;
    RunOptions options;                  // with the budget's steps
    CostModel costs;
    PlanEstimate estimate;               // of what this invocation measures (deferred records: 0 s)
    std::optional<BudgetFit> budget;
    std::vector<bool> deferred;          // per record: left for --resume by the budget
    std::vector<std::string> notes;      // the classes' notes, the calibration's warning
};

// Throws UsageError when nothing applies, or when a budget cannot hold the
// minimum plan.
RunPlan make_run_plan(const Graph& graph, const Registry& registry, const Filters& filters, const RunOptions& options,
                      CostModel costs, std::optional<double> budget_s);

// What meta.plan keeps: counts, estimate, classes, cost model source, budget
// steps, notes (docs/schema.md).
nlohmann::json run_plan_summary_json(const RunPlan& plan);
// `hwcomm run --plan --json`: the summary plus every record with its role,
// class and estimate, grouped by method.
nlohmann::json run_plan_to_json(const RunPlan& plan);
// `hwcomm run --plan`: every record grouped by method and class, the estimate
// per method and in total.
std::string format_run_plan(const RunPlan& plan);

}  // namespace hwcomm
