// Transfers under load: max-min fair share of every edge that two or more of
// them cross the same way (links are full duplex). Each transfer asks for the
// rate it reaches alone at its size; an edge gives what it can carry (fitted
// from concurrency records: the most any of them carried; else its stated rate times the efficiency of the
// same methods on edges of its kind, else no limit, said so). The load is
// taken as steady: the transfers in --while keep the edge busy throughout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "analyze/record_facts.hpp"
#include "model/predict.hpp"
#include "model/routes.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::model {

namespace {

struct SharedEdge {
    std::string name;
    std::size_t edge = 0;
    std::vector<std::size_t> users;  // transfer indexes
    double capacity = std::numeric_limits<double>::infinity();
    std::string basis;
};

void size_capacity(const Model& m, const Graph& g, const std::vector<Answer>& alone, SharedEdge& e,
                   const std::vector<std::string>& exclude) {
    std::vector<double> fitted;
    std::vector<std::string> from;
    for (const SharedEdgeFit& f : m.shared_edges) {
        if (f.edge != e.name) continue;
        if (std::any_of(f.records.begin(), f.records.end(), [&](const std::string& k) {
                return std::find(exclude.begin(), exclude.end(), k) != exclude.end();
            }))
            continue;
        fitted.push_back(f.capacity_gbps);
        from.insert(from.end(), f.records.begin(), f.records.end());
    }
    char buf[200];
    if (!fitted.empty()) {
        // Each record shows what the edge carried, not always all it can
        // carry (two lanes of 55 GB/s do not fill a 160 GB/s host side):
        // every fit is a lower bound, and the capacity is the largest seen.
        e.capacity = *std::max_element(fitted.begin(), fitted.end());
        std::string keys;
        for (const auto& k : from) keys += (keys.empty() ? "" : ", ") + k;
        std::snprintf(buf, sizeof buf, "%.1f GB/s fitted on ", e.capacity);
        e.basis = buf + keys;
        return;
    }
    const Edge& edge = g.edges()[e.edge];
    if (!(edge.gbps_per_direction > 0)) {
        e.basis = "no stated rate and no concurrency record: no contention assumed";
        return;
    }
    // Efficiency of the users' methods on single transfers limited by an edge of this kind.
    const std::string kind = analyze::describe_edge(edge);
    std::set<std::string> methods;
    for (std::size_t u : e.users) methods.insert(alone[u].query.method);
    std::vector<double> eff;
    for (int pass = 0; pass < 2 && eff.empty(); ++pass)
        for (const CurveModel& c : m.curves)
            if (c.single() && c.limit_gbps > 0 && c.limit_what == kind && (pass == 1 || methods.count(c.method)))
                eff.push_back(large_gbps(c.fit) / c.limit_gbps);
    const double efficiency = eff.empty() ? 1.0 : median_value(eff);
    e.capacity = edge.gbps_per_direction * efficiency;
    std::snprintf(buf, sizeof buf, "%.1f GB/s = %s %.1f GB/s x %.1f%% (%s)", e.capacity, kind.c_str(),
                  edge.gbps_per_direction, efficiency * 100,
                  eff.empty() ? "no transfer measured on such an edge: 100%"
                              : ("median of " + std::to_string(eff.size()) + " single transfers on such edges").c_str());
    e.basis = buf;
}

}  // namespace

std::vector<Answer> predict_concurrent(const Model& m, const Graph* g, const std::vector<Query>& transfers,
                                       const std::vector<std::string>& exclude) {
    std::vector<Answer> out;
    for (const Query& q : transfers) out.push_back(predict_alone(m, g, q, exclude));
    if (!g || out.size() < 2) return out;
    std::map<std::string, SharedEdge> edges;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Answer& a = out[i];
        for (const Crossing& c : route_crossings(*g, a.query.method, a.query.src, a.query.dst, a.params)) {
            SharedEdge& e = edges[c.name()];
            e.name = c.name(), e.edge = c.edge;
            if (std::find(e.users.begin(), e.users.end(), i) == e.users.end()) e.users.push_back(i);
        }
    }
    std::vector<SharedEdge> shared;
    for (auto& [name, e] : edges)
        if (e.users.size() >= 2) {
            size_capacity(m, *g, out, e, exclude);
            shared.push_back(e);
        }
    // Max-min fair share (progressive filling): freeze the transfers of the
    // tightest edge at their share, take them off, repeat.
    const std::size_t n = out.size();
    std::vector<double> demand(n), alloc(n, 0);
    std::vector<bool> frozen(n, false);
    std::vector<std::string> limited_by(n);
    for (std::size_t i = 0; i < n; ++i) demand[i] = out[i].gbps;
    for (std::size_t left = n; left > 0;) {
        double best = std::numeric_limits<double>::infinity();
        std::vector<double> cand(n, std::numeric_limits<double>::infinity());
        std::vector<std::string> why(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (frozen[i]) continue;
            cand[i] = demand[i];
            for (const SharedEdge& e : shared) {
                if (std::find(e.users.begin(), e.users.end(), i) == e.users.end()) continue;
                double used = 0;
                std::size_t active = 0;
                for (std::size_t u : e.users) frozen[u] ? used += alloc[u] : ++active;
                const double share = (e.capacity - used) / static_cast<double>(active);
                if (share < cand[i]) cand[i] = std::max(share, 0.0), why[i] = e.name;
            }
            best = std::min(best, cand[i]);
        }
        for (std::size_t i = 0; i < n; ++i)
            if (!frozen[i] && cand[i] <= best * (1 + 1e-12)) {
                frozen[i] = true, alloc[i] = cand[i], limited_by[i] = why[i], --left;
            }
    }
    for (std::size_t i = 0; i < n; ++i) {
        Answer& a = out[i];
        a.alone_gbps = a.gbps;
        if (limited_by[i].empty() || !(alloc[i] > 0)) continue;
        const SharedEdge& e = *std::find_if(shared.begin(), shared.end(),
                                            [&](const SharedEdge& s) { return s.name == limited_by[i]; });
        const double slow = a.gbps / alloc[i];
        a.seconds *= slow, a.seconds_low *= slow, a.seconds_high *= slow;
        a.gbps /= slow, a.gbps_low /= slow, a.gbps_high /= slow;
        a.shared_edge = e.name, a.capacity_gbps = e.capacity, a.capacity_basis = e.basis;
        a.notes.push_back("fair share of " + e.name + " with " + std::to_string(e.users.size() - 1) + " other transfer(s)");
    }
    for (std::size_t i = 0; i < n; ++i)
        for (const SharedEdge& e : shared)
            if (std::find(e.users.begin(), e.users.end(), i) != e.users.end() && std::isinf(e.capacity))
                out[i].notes.push_back("shared " + e.name + ": " + e.basis);
    return out;
}

}  // namespace hwcomm::model
