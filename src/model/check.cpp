#include "model/check.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "measure/byte_size.hpp"
#include "model/check_internal.hpp"
#include "model/predict.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::model {

namespace check_detail {

void summarize(ErrorSummary& s) {
    std::vector<double> a;
    for (const CheckCase& c : s.cases) a.push_back(std::abs(c.error));
    std::sort(a.begin(), a.end());
    if (a.empty()) return;
    const std::size_t n = a.size();
    s.median_abs = median_value(a);
    s.p90_abs = a[std::min(n - 1, static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1)];
    s.max_abs = a.back();
    for (double e : a) s.within_5pct += e <= 0.05, s.within_15pct += e <= 0.15;
    for (const CheckCase& c : s.cases)
        if (c.high > 0) ++s.with_interval, s.inside_interval += c.measured >= c.low && c.measured <= c.high;
}

void skip(ErrorSummary& s, const std::string& why) {
    ++s.skipped;
    if (s.skip_reasons.size() < 5) s.skip_reasons.push_back(why);
}

void predict_record(const Model& m, const Graph* g, const Record& r, std::uint64_t min_bytes,
                    const std::function<bool(const LaneSpec&)>& counted, ErrorSummary& lanes,
                    ErrorSummary* aggregates) {
    const bool loaded = std::any_of(r.lanes.begin(), r.lanes.end(), [](const LaneSpec& l) { return l.role == "load"; });
    for (const Point& p : r.points) {
        // Points on other axes (in-flight, priority) are the pattern C, not a
        // load the edges share: the fit leaves them out, and so does the check.
        if (p.status != "ok" || p.bytes < min_bytes || p.lanes.empty() || !p.axes.empty()) continue;
        // A background load lane copies chunks back to back for the whole
        // window: a steady stream that asks for the large-transfer rate, so it
        // asks at the measured lane's size (its chunk alone would sit on the ramp).
        std::vector<Query> qs;
        for (const LaneSpec& l : r.lanes)
            if (const auto solo = solo_equivalent(l)) qs.push_back({solo->method, solo->params, l.src, l.dst, p.bytes});
        if (qs.size() != r.lanes.size()) {
            skip(lanes, r.key + ": a lane has no single-transfer equivalent");
            return;
        }
        std::vector<Answer> ans;
        try {
            ans = predict_concurrent(m, g, qs);
        } catch (const UsageError& e) {
            skip(lanes, r.key + ": " + e.what());
            return;
        }
        // An edge left with no measurement under load and no stated rate is
        // answered "unmeasured, no bound": a refusal, not a prediction to score.
        for (const Answer& a : ans)
            for (const SharedEdgeAnswer& e : a.shared)
                if (e.basis == "unmeasured" && !std::isfinite(e.carried_gbps)) {
                    skip(lanes, r.key + ": " + e.edge + " has no other measurement under load and no stated rate "
                                "(the answer says unmeasured)");
                    return;
                }
        double bytes = 0, slowest = 0;
        for (std::size_t i = 0; i < r.lanes.size(); ++i) {
            if (r.lanes[i].role == "load") continue;  // U: its rate is an input, not a prediction
            bytes += ans[i].gbps * ans[i].seconds;
            slowest = std::max(slowest, ans[i].seconds);
            if (!counted(r.lanes[i])) continue;
            for (const LanePoint& lp : p.lanes)
                if (lp.label == r.lanes[i].label && lp.bandwidth_gbps > 0)
                    lanes.cases.push_back({r.key + " " + lp.label, p.bytes, ans[i].gbps, lp.bandwidth_gbps,
                                           ans[i].gbps / lp.bandwidth_gbps - 1, ans[i].capacity_basis,
                                           ans[i].gbps_low, ans[i].gbps_high});
        }
        if (aggregates && !loaded && p.bandwidth_gbps > 0 && slowest > 0)
            aggregates->cases.push_back({r.key, p.bytes, bytes / slowest, p.bandwidth_gbps,
                                         bytes / slowest / p.bandwidth_gbps - 1, ans[0].capacity_basis});
    }
}

}  // namespace check_detail

namespace {

using check_detail::skip;

void leave_one_size_out(const Model& m, std::uint64_t min_bytes, ErrorSummary& s) {
    for (const CurveModel& c : m.curves) {
        // A confirmation's few sizes are no sweep: between them its curve is its representative's.
        if (c.fit.knots.size() < 3 || c.measured_as == "confirmed") continue;
        for (const Knot& k : c.fit.knots)
            if (k.bytes >= min_bytes)
                s.cases.push_back({c.key, k.bytes, k.seconds * (1 + k.loo_error), k.seconds, k.loo_error, ""});
    }
}

using Pair = std::pair<std::string, std::string>;
Pair unordered(const CurveModel& c) { return c.src < c.dst ? Pair{c.src, c.dst} : Pair{c.dst, c.src}; }

void leave_one_pair_out(const Model& m, const Graph* g, ErrorSummary& s) {
    std::set<Pair> pairs;
    for (const CurveModel& c : m.curves)
        if (c.single() && c.src != c.dst) pairs.insert(unordered(c));
    for (const auto& [a, b] : pairs) {
        std::vector<std::string> held;
        for (const CurveModel& c : m.curves)
            if (unordered(c) == Pair{a, b}) held.push_back(c.key);
        for (const CurveModel& c : m.curves) {
            if (!c.single() || unordered(c) != Pair{a, b}) continue;
            const Knot& last = c.fit.knots.back();
            const double measured = static_cast<double>(last.bytes) * c.fit.bytes_per_rep_factor / last.seconds / 1e9;
            try {
                const Answer p = predict_alone(m, g, {c.method, c.params, c.src, c.dst, last.bytes}, held);
                s.cases.push_back({c.key, last.bytes, p.gbps, measured, p.gbps / measured - 1, p.limit_what});
            } catch (const UsageError& e) {
                skip(s, c.key + ": " + e.what());
            }
        }
    }
}

// Each record of transfers run together, predicted by the model fitted without it.
void leave_one_record_out(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs,
                          std::uint64_t min_bytes, ErrorSummary& lanes, ErrorSummary& aggregates) {
    for (const NamedResults& in : inputs)
        for (const Record& r : in.file.records) {
            if (r.status != "ok" || r.lanes.size() < 2) continue;
            check_detail::predict_record(without_records(m, {r.key}), g, r, min_bytes,
                                         [](const LaneSpec&) { return true; }, lanes, &aggregates);
        }
}

}  // namespace

CheckReport check_model(const std::vector<NamedResults>& inputs, std::uint64_t min_bytes,
                        std::uint64_t lane_min_bytes) {
    CheckReport r;
    r.min_bytes = min_bytes;
    const std::string lane_sizes = " at sizes >= " + format_size(lane_min_bytes);
    r.sizes.name = "leave-one-size-out (time at sizes >= " + format_size(min_bytes) + ")";
    r.pairs.name = "leave-one-pair-out (bandwidth at the largest size, pair extrapolated from the graph)";
    r.lanes.name = "concurrency lanes, leave-one-record-out (per-lane GB/s" + lane_sizes + ")";
    r.aggregates.name = "concurrency aggregates, leave-one-record-out (all lanes' bytes over the common window)";
    r.levels.name = "leave-one-level-out (every record with n transfers on a shared edge held out; per-lane GB/s" +
                    lane_sizes + ")";
    r.members.name = "leave-one-member-out (one member of a shared edge's class held out with its single "
                     "transfers; its lanes' GB/s" + lane_sizes + ")";
    const Model m = fit_model(inputs);
    std::optional<Graph> graph;
    if (!m.topology.empty()) graph = graph_from_json(m.topology);
    const Graph* g = graph ? &*graph : nullptr;
    leave_one_size_out(m, min_bytes, r.sizes);
    leave_one_pair_out(m, g, r.pairs);
    leave_one_record_out(m, g, inputs, lane_min_bytes, r.lanes, r.aggregates);
    check_detail::leave_one_level_out(m, g, inputs, lane_min_bytes, r.levels);
    check_detail::leave_one_member_out(m, g, inputs, lane_min_bytes, r.members);
    for (ErrorSummary* s : {&r.sizes, &r.pairs, &r.lanes, &r.aggregates, &r.levels, &r.members})
        check_detail::summarize(*s);
    if (m.shared_edges.empty())
        r.no_load_reason = "the model cannot answer under load: no input record measured transfers that shared an "
                           "edge (concurrency, under-load or --transfers records)";
    return r;
}

}  // namespace hwcomm::model
