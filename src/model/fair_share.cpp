// Transfers under load: max-min fair share of every edge that two or more of
// them cross the same way (links are full duplex). Each transfer asks for the
// rate it reaches alone at its size; an edge carries what its fitted curve
// gives for their demand together (edge_load), so a host side that degrades
// before it saturates slows every transfer a little. The load is taken as
// steady: the transfers in --while keep the edge busy throughout. Three
// fillings give the answer and its interval: with the point values, with the
// low ends (the transfers' and the edges') and with the high ends.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "model/fit.hpp"
#include "model/predict.hpp"
#include "model/routes.hpp"

namespace hwcomm::model {

namespace {

struct Filling {
    std::vector<double> rate;
    std::vector<int> limited_by;  // index into the edges, -1: its own rate alone
};

// Progressive filling: freeze the transfers of the tightest edge at their
// share, take them off, repeat.
Filling max_min_fair(const std::vector<double>& demand, const std::vector<std::vector<std::size_t>>& users,
                     const std::vector<double>& capacity) {
    const std::size_t n = demand.size();
    Filling f{std::vector<double>(n, 0), std::vector<int>(n, -1)};
    std::vector<bool> frozen(n, false);
    for (std::size_t left = n; left > 0;) {
        double best = std::numeric_limits<double>::infinity();
        std::vector<double> cand(n, std::numeric_limits<double>::infinity());
        std::vector<int> why(n, -1);
        for (std::size_t i = 0; i < n; ++i) {
            if (frozen[i]) continue;
            cand[i] = demand[i];
            for (std::size_t e = 0; e < users.size(); ++e) {
                if (std::find(users[e].begin(), users[e].end(), i) == users[e].end()) continue;
                double used = 0;
                std::size_t active = 0;
                for (std::size_t u : users[e]) frozen[u] ? used += f.rate[u] : ++active;
                const double share = (capacity[e] - used) / static_cast<double>(active);
                if (share < cand[i]) cand[i] = std::max(share, 0.0), why[i] = static_cast<int>(e);
            }
            best = std::min(best, cand[i]);
        }
        for (std::size_t i = 0; i < n; ++i)
            if (!frozen[i] && cand[i] <= best * (1 + 1e-12)) frozen[i] = true, f.rate[i] = cand[i], f.limited_by[i] = why[i], --left;
    }
    return f;
}

std::string params_kind(const Answer& a) { return transfer_kind(a.query.method, a.params); }

}  // namespace

std::vector<Answer> predict_concurrent(const Model& m, const Graph* g, const std::vector<Query>& transfers) {
    std::vector<Answer> out;
    for (const Query& q : transfers) out.push_back(predict_alone(m, g, q));
    if (out.size() < 2) return out;
    if (!g) {
        for (Answer& a : out)
            a.notes.push_back("the model has no topology: it cannot tell which edges these transfers share "
                              "(no contention assumed)");
        return out;
    }
    struct Use {
        std::size_t edge = 0;
        std::vector<std::size_t> users;
    };
    std::map<std::string, Use> crossed;
    for (std::size_t i = 0; i < out.size(); ++i)
        for (const Crossing& c : route_crossings(*g, out[i].query.method, out[i].query.src, out[i].query.dst, out[i].params)) {
            Use& u = crossed[c.name()];
            u.edge = c.edge;
            if (std::find(u.users.begin(), u.users.end(), i) == u.users.end()) u.users.push_back(i);
        }
    std::vector<SharedEdgeAnswer> edges;
    std::vector<std::vector<std::size_t>> users;
    for (const auto& [name, u] : crossed) {
        if (u.users.size() < 2) continue;
        std::vector<std::pair<std::string, double>> asking;
        for (std::size_t i : u.users) asking.push_back({params_kind(out[i]), out[i].gbps});
        edges.push_back(edge_load(m, *g, name, u.edge, asking));
        users.push_back(u.users);
    }
    const std::size_t n = out.size();
    std::vector<double> demand(n), demand_low(n), demand_high(n), cap, cap_low, cap_high;
    for (std::size_t i = 0; i < n; ++i)
        demand[i] = out[i].gbps, demand_low[i] = out[i].gbps_low, demand_high[i] = out[i].gbps_high;
    for (const SharedEdgeAnswer& e : edges)
        cap.push_back(e.carried_gbps), cap_low.push_back(e.carried_low), cap_high.push_back(e.carried_high);
    const Filling point = max_min_fair(demand, users, cap), low = max_min_fair(demand_low, users, cap_low),
                  high = max_min_fair(demand_high, users, cap_high);
    for (std::size_t i = 0; i < n; ++i) {
        Answer& a = out[i];
        a.alone_gbps = a.gbps;
        for (std::size_t e = 0; e < edges.size(); ++e)
            if (std::find(users[e].begin(), users[e].end(), i) != users[e].end()) a.shared.push_back(edges[e]);
        if (a.shared.empty()) continue;
        if (m.shared_edges.empty())
            a.notes.push_back("the model cannot answer under load: none of its results files measured transfers that "
                              "shared an edge (concurrency, under-load or --transfers records); each shared edge is "
                              "bounded by its stated rate only");
        const double moved = a.gbps * 1e9 * a.seconds;  // bytes, as predicted alone
        a.gbps = point.rate[i];
        a.gbps_low = std::min(low.rate[i], a.gbps);
        a.gbps_high = std::max(high.rate[i], a.gbps);
        if (!(a.gbps > 0)) continue;
        a.seconds = moved / a.gbps / 1e9;
        a.seconds_low = moved / a.gbps_high / 1e9;
        a.seconds_high = a.gbps_low > 0 ? moved / a.gbps_low / 1e9 : std::numeric_limits<double>::infinity();
        if (point.limited_by[i] < 0) continue;
        const SharedEdgeAnswer& e = edges[static_cast<std::size_t>(point.limited_by[i])];
        a.shared_edge = e.edge, a.capacity_gbps = e.carried_gbps;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.1f GB/s for %zu transfers asking %.1f GB/s alone (%s)", e.carried_gbps,
                      e.transfers, e.demand_gbps, e.basis.c_str());
        a.capacity_basis = buf;
        a.notes.push_back("fair share of " + e.edge + " with " + std::to_string(e.transfers - 1) + " other transfer(s)");
    }
    return out;
}

}  // namespace hwcomm::model
