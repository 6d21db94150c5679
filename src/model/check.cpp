#include "model/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "analyze/curve_metrics.hpp"
#include "catalog/row_json.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "measure/byte_size.hpp"
#include "model/predict.hpp"

namespace hwcomm::model {

namespace {

void summarize(ErrorSummary& s) {
    std::vector<double> a;
    for (const CheckCase& c : s.cases) a.push_back(std::abs(c.error));
    std::sort(a.begin(), a.end());
    if (a.empty()) return;
    const std::size_t n = a.size();
    s.median_abs = n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
    s.p90_abs = a[std::min(n - 1, static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1)];
    s.max_abs = a.back();
    for (double e : a) s.within_5pct += e <= 0.05, s.within_15pct += e <= 0.15;
}

void skip(ErrorSummary& s, const std::string& why) {
    ++s.skipped;
    if (s.skip_reasons.size() < 5) s.skip_reasons.push_back(why);
}

void leave_one_size_out(const Model& m, std::uint64_t min_bytes, ErrorSummary& s) {
    for (const CurveModel& c : m.curves) {
        if (c.fit.knots.size() < 3) continue;
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

// The size whose rate a lane asks for: a background load lane copies its
// chunks back to back for the whole window, a steady stream that asks for the
// large-transfer rate (its 32 MiB chunk alone would sit on the ramp and
// understate the load), so it asks at the measured lane's size.
std::uint64_t lane_bytes(const LaneSpec&, std::uint64_t point_bytes) { return point_bytes; }

void concurrency(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs, std::uint64_t min_bytes,
                 ErrorSummary& lanes, ErrorSummary& aggregates) {
    for (const NamedResults& in : inputs) {
        const MethodCatalog catalog = catalog_for(in.file.meta);
        for (const Record& r : in.file.records) {
            if (r.status != "ok" || r.lanes.size() < 2) continue;
            bool loaded = false;
            for (const LaneSpec& l : r.lanes) loaded = loaded || l.role == "load";
            for (const Point& p : r.points) {
                if (p.status != "ok" || p.bytes < min_bytes || p.lanes.empty()) continue;
                std::vector<Query> qs;
                for (const LaneSpec& l : r.lanes)
                    if (const auto solo = solo_equivalent(l, catalog))
                        qs.push_back({solo->method, solo->params, l.src, l.dst, lane_bytes(l, p.bytes)});
                if (qs.size() != r.lanes.size()) {
                    skip(lanes, r.key + ": a lane has no single-transfer equivalent");
                    break;
                }
                std::vector<Answer> ans;
                try {
                    ans = predict_concurrent(m, g, qs, {r.key});
                } catch (const UsageError& e) {
                    skip(lanes, r.key + ": " + e.what());
                    break;
                }
                double bytes = 0, slowest = 0;
                for (std::size_t i = 0; i < r.lanes.size(); ++i) {
                    if (r.lanes[i].role == "load") continue;  // U: its rate is an input, not a prediction
                    bytes += ans[i].gbps * ans[i].seconds;
                    slowest = std::max(slowest, ans[i].seconds);
                    for (const LanePoint& lp : p.lanes)
                        if (lp.label == r.lanes[i].label && lp.bandwidth_gbps > 0)
                            lanes.cases.push_back({r.key + " " + lp.label, p.bytes, ans[i].gbps, lp.bandwidth_gbps,
                                                   ans[i].gbps / lp.bandwidth_gbps - 1, ans[i].capacity_basis});
                }
                if (!loaded && p.bandwidth_gbps > 0 && slowest > 0)
                    aggregates.cases.push_back({r.key, p.bytes, bytes / slowest, p.bandwidth_gbps,
                                                bytes / slowest / p.bandwidth_gbps - 1, ans[0].capacity_basis});
            }
        }
    }
}

}  // namespace

CheckReport check_model(const std::vector<NamedResults>& inputs, std::uint64_t min_bytes,
                        std::uint64_t lane_min_bytes) {
    CheckReport r;
    r.min_bytes = min_bytes;
    r.sizes.name = "leave-one-size-out (time at sizes >= " + format_size(min_bytes) + ")";
    r.pairs.name = "leave-one-pair-out (bandwidth at the largest size, pair extrapolated from the graph)";
    r.lanes.name = "concurrency lanes (per-lane GB/s at sizes >= " + format_size(lane_min_bytes) + ")";
    r.aggregates.name = "concurrency aggregates (all lanes' bytes over the common window)";
    const Model m = fit_model(inputs);
    std::optional<Graph> graph;
    if (!m.topology.empty()) graph = graph_from_json(m.topology);
    const Graph* g = graph ? &*graph : nullptr;
    leave_one_size_out(m, min_bytes, r.sizes);
    leave_one_pair_out(m, g, r.pairs);
    concurrency(m, g, inputs, lane_min_bytes, r.lanes, r.aggregates);
    for (ErrorSummary* s : {&r.sizes, &r.pairs, &r.lanes, &r.aggregates}) summarize(*s);
    return r;
}

std::string format_check(const CheckReport& r, std::size_t worst) {
    std::string out;
    char buf[400];
    for (const ErrorSummary* s : {&r.sizes, &r.pairs, &r.lanes, &r.aggregates}) {
        out += s->name + "\n";
        if (s->cases.empty()) {
            out += "  no case" + std::string(s->skipped ? "" : " in the input") + "\n";
        } else {
            std::snprintf(buf, sizeof buf,
                          "  %zu cases: median |error| %.2f%%, 90th percentile %.2f%%, max %.2f%%; within 5%%: %zu, "
                          "within 15%%: %zu\n",
                          s->cases.size(), s->median_abs * 100, s->p90_abs * 100, s->max_abs * 100, s->within_5pct,
                          s->within_15pct);
            out += buf;
            std::vector<const CheckCase*> sorted;
            for (const CheckCase& c : s->cases) sorted.push_back(&c);
            std::sort(sorted.begin(), sorted.end(),
                      [](const CheckCase* x, const CheckCase* y) { return std::abs(x->error) > std::abs(y->error); });
            for (std::size_t i = 0; i < std::min(worst, sorted.size()); ++i) {
                const CheckCase& c = *sorted[i];
                std::snprintf(buf, sizeof buf, "  worst: %-60s %9s  %+7.2f%%  (predicted %.4g, measured %.4g)",
                              c.key.c_str(), format_size(c.bytes).c_str(), c.error * 100, c.predicted, c.measured);
                out += buf + (c.note.empty() ? "" : " " + c.note) + "\n";  // a note can name many records
            }
        }
        if (s->skipped) {
            out += "  not predictable: " + std::to_string(s->skipped) + "\n";
            for (const auto& w : s->skip_reasons) out += "    " + w + "\n";
        }
    }
    return out;
}

nlohmann::json check_to_json(const CheckReport& r) {
    nlohmann::json j{{"schema", "hwcomm.model-check/v1"}, {"min_bytes", r.min_bytes}};
    const char* names[] = {"leave_one_size_out", "leave_one_pair_out", "concurrency_lanes", "concurrency_aggregates"};
    const ErrorSummary* sums[] = {&r.sizes, &r.pairs, &r.lanes, &r.aggregates};
    for (int i = 0; i < 4; ++i) {
        const ErrorSummary& s = *sums[i];
        nlohmann::json cases = nlohmann::json::array();
        for (const CheckCase& c : s.cases)
            cases.push_back({{"key", c.key}, {"bytes", c.bytes}, {"predicted", c.predicted}, {"measured", c.measured},
                             {"error", c.error}, {"note", c.note}});
        j[names[i]] = {{"what", s.name}, {"n", s.cases.size()}, {"median_abs_error", s.median_abs},
                       {"p90_abs_error", s.p90_abs}, {"max_abs_error", s.max_abs}, {"within_5pct", s.within_5pct},
                       {"within_15pct", s.within_15pct}, {"skipped", s.skipped}, {"skip_reasons", s.skip_reasons},
                       {"cases", std::move(cases)}};
    }
    return j;
}

}  // namespace hwcomm::model
