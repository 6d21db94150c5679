#pragma once
// --budget DURATION (issue 21, item 3): the plan is fitted into the budget by
// steps in a fixed order, each applied only while the estimate is still over
// it, each announced and recorded (meta.plan.budget):
//   1 confirmation-sizes       confirmations at the plateau size only
//   2 heavy-on-representatives the heavy methods' confirmations left for --resume
//   3 coarse-ladders           full sweeps climb every 2nd octave
//   4 confirmations-deferred   every confirmation left for --resume
//   5 short-sampling           3 samples, 0.05 s per size (--quick's rule)
// What remains after step 5 is the minimum plan (every class representative
// once); a budget below it is a UsageError that states the minimum.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/cost_model.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// "90s", "10m", "1.5h", "1h30m", "45" (seconds). Throws UsageError for
// anything else, zero or negative.
double parse_duration(const std::string& text);

// The methods whose confirmations step 2 leaves out (their catalog rows say
// heavy: host-side staging, disks, loads, unified memory, gpumem).
bool heavy_method(const std::string& method);

struct BudgetStep {
    std::string name, description;
    double before_s = 0, after_s = 0;
};

struct BudgetFit {
    double budget_s = 0;
    RunOptions options;             // with the steps that change how records are measured
    std::vector<bool> deferred;     // per planned record: left for --resume by steps 2 and 4
    std::size_t deferred_records = 0;  // the records those write (a round: its lanes)
    std::vector<BudgetStep> steps;  // the steps taken, in order
    double estimate_s = 0;          // of what this invocation measures
};

// Throws UsageError when even the minimum plan exceeds the budget.
BudgetFit fit_budget(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                     double budget_s);

nlohmann::json budget_fit_to_json(const BudgetFit& fit);

// A run against its budget: a record is admitted while the time spent plus
// its estimate stays within the budget; sampling stops at once when the time
// spent reaches the budget plus most of the 10% it may overrun (the rest
// is for saving the file). Starts when made.
class BudgetClock {
public:
    explicit BudgetClock(double budget_s);
    bool admits(double expected_s) const;
    bool spent() const;
    double elapsed_s() const;

private:
    double budget_s_, started_;
};

inline constexpr double kBudgetHardStop = 1.07;  // of the budget: the allowed overrun is 10%

// "3 min 12 s", "45 s", "1 h 02 min".
std::string duration_text(double seconds);

}  // namespace hwcomm
