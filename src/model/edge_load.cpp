// What a shared edge carries for the transfers sharing it: from the curve
// fitted for their kind (docs/model.md), from the curves of each kind
// weighted by demand for a mix never measured together, or, for an edge no
// record measured under load, its stated rate as a bound.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "analyze/record_facts.hpp"
#include "measure/statistics.hpp"
#include "model/fit.hpp"
#include "model/predict.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::model {

namespace {

std::string curve_text(const SharedEdgeFit& f) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "A(x) = x / (1 + (x/C)^k)^(1/k), C = %.1f GB/s, k = %.2f (%s), rms %.1f%%",
                  f.curve.capacity_gbps, f.curve.sharpness, f.curve.sharpness_fitted ? "fitted" : "default",
                  f.curve.rel_rms * 100);
    std::string counts;
    for (std::size_t n : counts_of(f.observations)) counts += (counts.empty() ? "" : ", ") + std::to_string(n);
    return std::string(buf) + "; " + f.kind + " measured at " + counts + " transfers";
}

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const auto& x : from)
        if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
}

// An edge no record measured under load: the stated rate times what single
// transfers reach on edges of its kind, bounded by the stated rate.
void unmeasured(const Model& m, const Edge& edge, const std::vector<std::string>& kinds, SharedEdgeAnswer& a) {
    a.basis = "unmeasured";
    const double inf = std::numeric_limits<double>::infinity();
    if (!(edge.gbps_per_direction > 0)) {
        a.carried_gbps = a.carried_low = a.carried_high = inf;
        a.curve = "no record measured transfers sharing it and no source states its rate: no bound, no contention assumed";
        return;
    }
    const std::string kind = describe_edge(edge, EdgeText::Link);
    std::vector<double> eff;
    for (int pass = 0; pass < 2 && eff.empty(); ++pass)
        for (const CurveModel& c : m.curves)
            if (c.single() && c.limit_gbps > 0 && c.limit_what == kind &&
                (pass == 1 || std::find(kinds.begin(), kinds.end(), transfer_kind(c.method, c.params)) != kinds.end()))
                eff.push_back(std::min(1.0, large_gbps(c.fit) / c.limit_gbps));
    const double median = eff.empty() ? 1.0 : median_value(eff);
    const double lowest = eff.empty() ? 1.0 : *std::min_element(eff.begin(), eff.end());
    const double x = a.demand_gbps, s = edge.gbps_per_direction;
    a.carried_gbps = std::min(x, s * median);
    a.carried_low = std::min(x, s * lowest);
    a.carried_high = std::min(x, s);
    char buf[300];
    if (eff.empty())
        std::snprintf(buf, sizeof buf,
                      "no record measured transfers sharing it: bounded by its stated rate %.1f GB/s (%s); no single "
                      "transfer measured on such an edge: 100%%",
                      s, kind.c_str());
    else
        std::snprintf(buf, sizeof buf,
                      "no record measured transfers sharing it: bounded by its stated rate %.1f GB/s (%s); %.1f%% of "
                      "it, the median of %zu single transfers on such edges (lowest %.1f%%)",
                      s, kind.c_str(), median * 100, eff.size(), lowest * 100);
    a.curve = buf;
}

}  // namespace

SharedEdgeAnswer edge_load(const Model& m, const Graph& g, const std::string& name, std::size_t edge_index,
                           const std::vector<std::pair<std::string, double>>& users) {
    const Edge& edge = g.edges()[edge_index];
    SharedEdgeAnswer a;
    a.edge = name, a.stated_gbps = edge.gbps_per_direction, a.transfers = users.size();
    std::map<std::string, std::pair<std::size_t, double>> by_kind;  // kind -> (transfers, demand)
    for (const auto& [kind, gbps] : users) {
        auto& k = by_kind[kind];
        ++k.first, k.second += gbps;
        a.demand_gbps += gbps;
    }
    std::vector<std::string> kinds;
    for (const auto& [kind, use] : by_kind) {
        kinds.push_back(kind);
        a.kinds += (a.kinds.empty() ? "" : " + ") + kind + " x" + std::to_string(use.first);
    }
    std::vector<const SharedEdgeFit*> fits;
    for (const SharedEdgeFit& f : m.shared_edges)
        if (f.edge == name) fits.push_back(&f), a.what = f.what;
    if (a.what.empty()) a.what = describe_edge(edge, EdgeText::Link);
    if (fits.empty()) {
        unmeasured(m, edge, kinds, a);
        return a;
    }
    a.basis = "fitted";
    const auto find_kind = [&fits](const std::string& kind) -> const SharedEdgeFit* {
        for (const SharedEdgeFit* f : fits)
            if (f->kind == kind) return f;
        return nullptr;
    };
    std::string mix;
    for (const auto& k : kinds) mix += (mix.empty() ? "" : " + ") + k;
    // Each part of the demand is served as its kind's curve serves the whole
    // demand: the measured mix itself when there is one.
    std::vector<std::pair<const SharedEdgeFit*, double>> parts;  // (curve, weight)
    bool borrowed = false;
    if (const SharedEdgeFit* f = find_kind(mix)) {
        parts.push_back({f, 1.0});
    } else {
        if (by_kind.size() > 1) a.notes.push_back("these kinds were never measured together on " + name +
                                                  ": each kind's curve for its share of the demand");
        for (const auto& [kind, use] : by_kind) {
            const double weight = a.demand_gbps > 0 ? use.second / a.demand_gbps : 1.0 / by_kind.size();
            if (const SharedEdgeFit* f = find_kind(kind)) {
                parts.push_back({f, weight});
                continue;
            }
            std::string others;
            for (const SharedEdgeFit* f : fits) others += (others.empty() ? "" : ", ") + f->kind;
            a.notes.push_back(kind + " was never measured sharing " + name + ": taken as " + others +
                              ", up to no contention");
            for (const SharedEdgeFit* f : fits) parts.push_back({f, weight / static_cast<double>(fits.size())});
            borrowed = true;
        }
    }
    std::set<std::size_t> counts;
    std::vector<std::string> curves;
    for (const auto& [f, weight] : parts) {
        const LoadEstimate e = estimate_load(f->curve, f->observations, a.transfers, a.demand_gbps, a.stated_gbps);
        a.carried_gbps += weight * e.gbps, a.carried_low += weight * e.low, a.carried_high += weight * e.high;
        a.extrapolated = a.extrapolated || e.extrapolated;
        if (a.range.empty() || e.extrapolated) a.range = e.range;
        for (std::size_t n : counts_of(f->observations)) counts.insert(n);
        add_unique(a.records, f->records());
        const std::string text = curve_text(*f);
        if (std::find(curves.begin(), curves.end(), text) == curves.end()) {
            curves.push_back(text);
            a.curves.push_back({f->edge, f->what, f->kind, f->stated_gbps, {}, f->curve});
        }
    }
    if (borrowed)  // a kind never measured here may not contend at all
        a.carried_high = std::max(a.carried_high, a.stated_gbps > 0 ? std::min(a.demand_gbps, a.stated_gbps) : a.demand_gbps);
    a.counts.assign(counts.begin(), counts.end());
    for (const auto& c : curves) a.curve += (a.curve.empty() ? "" : "; ") + c;
    return a;
}

}  // namespace hwcomm::model
