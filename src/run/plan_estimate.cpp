#include "run/plan_estimate.hpp"

#include <algorithm>
#include <set>

#include "run/confirmation.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

namespace {

std::size_t variant_count(const Characterizer& method) {
    std::size_t n = 1;
    for (const AxisSpec& axis : method.axes()) n *= std::max<std::size_t>(1, axis.values.size());
    return n;
}

constexpr std::uint64_t kRampBytes = 64 << 10;

ExpectedSizes full_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    if (!record.sizes.empty()) return {record.sizes, false};  // a --transfers set of one size
    const SizePlan plan = full_size_plan(*record.method, options);
    if (!plan.ladder || plan.sizes.empty()) return {plan.sizes, false};
    const std::uint64_t stop = expected_ladder_stop(record, costs);
    return {expected_ladder_sizes(plan.sizes, plan.ladder_options, stop ? stop : plan.sizes.back()), true};
}

}  // namespace

std::uint64_t expected_ladder_stop(const PlannedRecord& record, const CostModel& costs) {
    return costs.of(cost_key(record.method->name(), record.params)).ladder_stop_bytes;
}

ExpectedSizes expected_sizes(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    ExpectedSizes full = full_sizes(record, options, costs);
    if (record.measured_as != "confirmed" || full.sizes.empty()) return full;
    std::vector<std::uint64_t>& sorted = full.sizes;
    std::sort(sorted.begin(), sorted.end());
    // As confirmation_sizes chooses them: smallest, ramp, the first size >= 64 MiB.
    const auto at = std::lower_bound(sorted.begin(), sorted.end(), kConfirmationPlateauBytes);
    const std::uint64_t plateau = at == sorted.end() ? sorted.back() : *at;
    if (options.plan.confirmation_sizes <= 1) return {{plateau}, false};
    std::vector<std::uint64_t> sizes{sorted.front(), std::clamp(kRampBytes, sorted.front(), plateau), plateau};
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return {sizes, false};
}

namespace {

// A group record's endpoints (a plain pair: 0), as lane_endpoints counts them in a record.
std::size_t planned_endpoints(const PlannedRecord& record) {
    if (!record.set) return 0;
    std::set<const Vertex*> ends(record.set->vertices.begin(), record.set->vertices.end());
    return ends.size() > 1 ? ends.size() : 0;
}

double estimate_record(const PlannedRecord& record, const RunOptions& options, const CostModel& costs,
                       std::size_t endpoints) {
    return costs.record_seconds(cost_key(record.method->name(), record.params), expected_sizes(record, options, costs),
                                variant_count(*record.method), options.stopping,
                                record.measured_as == "confirmed", endpoints);
}

// A round of `lanes` lanes from one confirmation of its method (`one` s, of
// which `setup` s outside its points): the lanes' samples run together, and
// every lane after the first adds a tenth of the set-up and half the points
// (its buffers, pattern fills and checks). Measured on nvidia-h200-x2 at
// 5236e92 with transfer sets of one and two 64 MiB lanes: outside the points
// 31-34 ms either way; points 4.0 -> 8.5-10.1 ms on copy engines, 3.6 ->
// 3.1-3.4 ms by copy kernels.
double round_seconds(double one, double setup, std::size_t lanes) {
    const double points = std::max(0.0, one - setup);
    return one + static_cast<double>(lanes > 0 ? lanes - 1 : 0) * (0.1 * setup + 0.5 * points);
}

}  // namespace

double estimate_record(const PlannedRecord& record, const RunOptions& options, const CostModel& costs) {
    if (record.measured_as == "covered") return 0;  // measured only when its pair is promoted
    if (record.sizes.empty() && !no_size_applies(*record.method, options).empty()) return 0;  // kept skipped
    if (!record.round.empty()) {
        const PlannedRecord& lane = record.round.front();
        const double setup = costs.of(cost_key(lane.method->name(), lane.params)).confirm_setup_s;
        return round_seconds(estimate_record(lane, options, costs, 0), setup, record.round.size());
    }
    return estimate_record(record, options, costs, planned_endpoints(record));
}

namespace {

// One link measured again, as measure_second_pass measures it: a fixed sweep of `bytes` alone.
double second_pass_seconds(const PlannedRecord& link, std::uint64_t bytes, const RunOptions& options,
                           const CostModel& costs, std::size_t endpoints) {
    PlannedRecord once = link;
    once.measured_as = "full";
    once.sizes = {bytes};
    once.round.clear();
    return estimate_record(once, options, costs, endpoints);
}

}  // namespace

double estimate_second_pass(const PlannedRecord& link, const RunOptions& options, const CostModel& costs) {
    return second_pass_seconds(link, kConfirmationPlateauBytes, options, costs, planned_endpoints(link));
}

namespace {

// The links a second pass could measure again, and their representatives (once each).
void add_second_pass(const std::vector<PlannedRecord>& plan, const RunOptions& options, const CostModel& costs,
                     const std::vector<bool>& skipped, PlanEstimate& e) {
    std::set<std::string> representatives;
    double sum = 0;
    std::size_t links = 0;
    const auto add = [&](const PlannedRecord& link) {
        sum += estimate_second_pass(link, options, costs);
        ++links;
    };
    for (std::size_t i = 0; i < plan.size(); ++i) {
        if ((i < skipped.size() && skipped[i]) || plan[i].measured_as != "confirmed") continue;
        representatives.insert(plan[i].representative_key);  // a round's, its lanes' class's
        if (plan[i].round.empty()) add(plan[i]);
        for (const PlannedRecord& lane : plan[i].round) add(lane);
    }
    for (const PlannedRecord& p : plan)
        if (p.measured_as == "full" && representatives.count(p.key)) add(p);
    e.second_pass_most_s = sum;
    e.second_pass_link_s = links ? sum / static_cast<double>(links) : 0;
}

}  // namespace

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
            PlannedRecord full = p.round.empty() ? p : p.round.front();
            full.measured_as = "full";
            const std::size_t lanes = std::max<std::size_t>(1, p.round.size());
            promotions += estimate_record(full, options, costs) * static_cast<double>(lanes);
            confirmed += lanes;
        }
    }
    e.promotion_s = confirmed ? promotions / static_cast<double>(confirmed) : 0;
    add_second_pass(plan, options, costs, skipped, e);
    return e;
}

std::vector<RecordedEstimate> estimate_recorded(const ResultsFile& file, const Registry& registry, const CostModel& costs) {
    const auto o = file.meta.find("options");
    const RunOptions options = o == file.meta.end() ? RunOptions{} : run_options_from_json(*o);
    std::vector<RecordedEstimate> out;
    for (const Record& r : file.records) {
        const Characterizer* method = registry.find(r.method);
        const auto elapsed = r.context.is_object() ? r.context.find("elapsed_s") : r.context.end();
        if (!method || elapsed == r.context.end() || !elapsed->is_number()) continue;
        PlannedRecord planned;
        planned.method = method;
        planned.params = r.params;
        planned.measured_as = r.measured_as == "promoted" ? "confirmed" : r.measured_as;
        const std::size_t endpoints = lane_endpoints(r);
        double as_planned = estimate_record(planned, options, costs, endpoints);
        if (const auto round = r.context.find("round"); round != r.context.end() && round->is_object()) {
            // A lane of a confirmation round: its share of the round's estimate.
            const auto lanes = round->value("lanes", nlohmann::json::array());
            const double n = lanes.is_array() && !lanes.empty() ? static_cast<double>(lanes.size()) : 1.0;
            const double setup = costs.of(cost_key(r.method, r.params)).confirm_setup_s;
            as_planned = round_seconds(as_planned, setup, static_cast<std::size_t>(n)) / n;
        }
        double estimate = as_planned;
        if (r.measured_as == "promoted") {  // its confirmation, then the full sweep the plan prices as promotion_s
            planned.measured_as = "full";
            estimate += estimate_record(planned, options, costs, endpoints);
        }
        if (const auto pass = r.context.find("second_pass"); pass != r.context.end() && pass->is_object()) {
            // Its elapsed_s counts the second measurement too.
            const auto bytes = pass->find("bytes");
            const bool stated = bytes != pass->end() && bytes->is_number_unsigned() && bytes->get<std::uint64_t>() > 0;
            estimate += second_pass_seconds(planned, stated ? bytes->get<std::uint64_t>() : kConfirmationPlateauBytes,
                                            options, costs, endpoints);
        }
        out.push_back({r.method, r.measured_as, elapsed->get<double>(), estimate, as_planned});
    }
    return out;
}

}  // namespace hwcomm
