#include "run/plan_estimate.hpp"

#include <algorithm>

#include "run/confirmation.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

namespace {

std::size_t axis_combinations(const Characterizer& method) {
    std::size_t n = 1;
    for (const AxisSpec& axis : method.axes()) n *= std::max<std::size_t>(1, axis.values.size());
    return n;
}

// Where the curve bends the ladder adds the intermediate sizes of about one
// octave on each side: two small sizes' worth.
constexpr std::size_t kExpectedRefinements = 2;
constexpr std::uint64_t kRampBytes = 64 << 10;

std::vector<std::uint64_t> full_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    if (!record.sizes.empty()) return record.sizes;  // a --transfers set of one size
    const SizePlan plan = full_size_plan(*record.method, options);
    if (!plan.ladder || plan.sizes.empty()) return plan.sizes;
    const std::uint64_t stop = costs.of(record.method->name()).ladder_stop_bytes;
    std::vector<std::uint64_t> sizes =
        stop ? expected_ladder_sizes(plan.sizes, plan.ladder_options, stop)
             : expected_ladder_sizes(plan.sizes, plan.ladder_options, plan.sizes.back());
    for (std::size_t i = 0; i < kExpectedRefinements; ++i) sizes.push_back(std::min(kRampBytes, plan.sizes.back()));
    return sizes;
}

}  // namespace

std::vector<std::uint64_t> expected_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    std::vector<std::uint64_t> full = full_sizes(record, options, costs);
    if (record.measured_as != "confirmed" || full.empty()) return full;
    std::sort(full.begin(), full.end());
    // As confirmation_sizes chooses them: smallest, ramp, the first size >= 64 MiB.
    const auto at = std::lower_bound(full.begin(), full.end(), kConfirmationPlateauBytes);
    const std::uint64_t plateau = at == full.end() ? full.back() : *at;
    if (options.plan.confirmation_sizes <= 1) return {plateau};
    std::vector<std::uint64_t> sizes{full.front(), std::clamp(kRampBytes, full.front(), plateau), plateau};
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

double estimate_record(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    return costs.record_seconds(record.method->name(), expected_sizes(record, options, costs),
                                axis_combinations(*record.method), options.stopping.min_samples);
}

PlanEstimate estimate_plan(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                           const std::vector<bool>& skipped) {
    PlanEstimate e;
    double promotions = 0;
    std::size_t confirmed = 0;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const PlannedRecord& p = plan[i];
        const bool skip = i < skipped.size() && skipped[i];
        const double s = skip ? 0 : estimate_record(p, options, costs);
        e.record_s.push_back(s);
        e.total_s += s;
        e.method_s[p.method->name()] += s;
        if (p.measured_as == "confirmed" && !skip) {
            PlannedRecord full = p;
            full.measured_as = "full";
            promotions += estimate_record(full, options, costs);
            ++confirmed;
        }
    }
    e.promotion_s = confirmed ? promotions / static_cast<double>(confirmed) : 0;
    return e;
}

}  // namespace hwcomm
