#pragma once
// The plan's estimate before measuring (issue 21, item 2): every planned
// record's expected seconds from the cost model and the sizes it will
// measure (a full sweep's ladder up to where its plateau is expected, a
// confirmation's few sizes), summed per method and in total.
#include <map>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "run/cost_model.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// The sizes a record is expected to measure: a full sweep's ladder first
// pass up to where its method's plateau held in the model's run (each size
// then counts the refinements the model's run measured per first-pass size),
// or exactly a confirmation's or a fixed sweep's sizes.
ExpectedSizes expected_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs);
// Where the record's ladder is expected to stop: the median stop of its cost
// key's ladders in the model's run; 0 when most of them reached their largest size.
std::uint64_t expected_ladder_stop(const PlannedRecord& record, const CostModel& costs);

double estimate_record(const PlannedRecord& record, const RunOptions& options, const CostModel& costs);

struct PlanEstimate {
    double total_s = 0;
    std::vector<double> record_s;                 // per planned record, in plan order
    std::map<std::string, double> method_s;       // per method
    // What a promotion adds on average: a full sweep instead of a confirmation.
    double promotion_s = 0;
    // What a class measured twice adds (run/second_pass.hpp): per link, on
    // average over the links classes keep (representatives and confirmed
    // members), one more measurement at the confirmations' plateau size; and
    // the most it could add, were every class with a confirmation measured twice.
    double second_pass_link_s = 0;
    double second_pass_most_s = 0;
};

// One link measured again by a second pass: alone, at the plateau size.
double estimate_second_pass(const PlannedRecord& link, const RunOptions& options, const CostModel& costs);

// `skipped`: records this invocation leaves out (by index), counted as 0 s.
PlanEstimate estimate_plan(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                           const std::vector<bool>& skipped = {});

// A measured file's records estimated again, as its plan estimated them (its
// meta.options, each record's measured_as; a promoted record as the
// confirmation it was planned as plus the full sweep its promotion added): how a cost model is checked against a run.
// Records with context.elapsed_s of methods `registry` knows, in file order.
struct RecordedEstimate {
    std::string method, measured_as;
    double elapsed_s = 0, estimate_s = 0;
    double planned_s = 0;  // as the plan estimated it: a promoted record's confirmation only
};
std::vector<RecordedEstimate> estimate_recorded(const ResultsFile& file, const Registry& registry, const CostModel& costs);

}  // namespace hwcomm
