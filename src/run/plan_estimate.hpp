#pragma once
// The plan's estimate before measuring (issue 21, item 2): every planned
// record's expected seconds from the cost model and the sizes it will
// measure (a full sweep's ladder up to where its plateau is expected, a
// confirmation's few sizes), summed per method and in total.
#include <map>
#include <string>
#include <vector>

#include "run/cost_model.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// The sizes a record is expected to measure.
std::vector<std::uint64_t> expected_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs);

double estimate_record(const PlannedRecord& record, const RunOptions& options, const CostModel& costs);

struct PlanEstimate {
    double total_s = 0;
    std::vector<double> record_s;                 // per planned record, in plan order
    std::map<std::string, double> method_s;       // per method
    // What a promotion adds on average: a full sweep instead of a confirmation.
    double promotion_s = 0;
};

// `skipped`: records this invocation leaves out (by index), counted as 0 s.
PlanEstimate estimate_plan(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                           const std::vector<bool>& skipped = {});

}  // namespace hwcomm
