// How many NVLinks join two GPUs and what they carry: a direct bond plus, per
// NVSwitch both reach, the smaller of their two bonds into that switch; GPUs on
// switches joined only by trunks (a fabric) get the smaller of their totals.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/paths.hpp"

namespace hwcomm {

namespace {

bool is_switch(const Graph& graph, const std::string& id) {
    const Vertex* v = graph.find(id);
    return v && is_nvswitch(v->kind);
}

struct Bond {
    int links = 0;
    double gbps = 0;
};

Bond bond_of(const Edge& e) {
    return {e.nvlink && e.nvlink->links > 0 ? e.nvlink->links : 1, e.gbps_per_direction};
}

// Bonds from a GPU to each switch it reaches directly.
std::map<std::string, Bond> switch_bonds(const Graph& graph, const std::string& gpu) {
    std::map<std::string, Bond> out;
    for (const Edge* e : graph.edges_of(gpu)) {
        if (e->kind != EdgeKind::NvLink || e->internal) continue;
        const std::string other = e->a == gpu ? e->b : e->a;
        if (!is_switch(graph, other)) continue;
        const Bond b = bond_of(*e);
        out[other].links += b.links;
        out[other].gbps += b.gbps;
    }
    return out;
}

// Switches reachable from `start` through switch-to-switch NVLink edges (trunks).
std::set<std::string> fabric_of(const Graph& graph, const std::string& start) {
    std::set<std::string> seen{start};
    std::vector<std::string> todo{start};
    while (!todo.empty()) {
        const std::string cur = todo.back();
        todo.pop_back();
        for (const Edge* e : graph.edges_of(cur)) {
            if (e->kind != EdgeKind::NvLink) continue;
            const std::string other = e->a == cur ? e->b : e->a;
            if (is_switch(graph, other) && seen.insert(other).second) todo.push_back(other);
        }
    }
    return seen;
}

}  // namespace

NvLinkReach nvlink_between(const Graph& graph, const std::string& a, const std::string& b) {
    NvLinkReach reach;
    if (a == b) return reach;
    for (const Edge& e : graph.edges()) {
        if (e.kind != EdgeKind::NvLink || !((e.a == a && e.b == b) || (e.a == b && e.b == a))) continue;
        const Bond d = bond_of(e);
        reach.links += d.links;
        reach.gbps += d.gbps;
    }
    const auto sa = switch_bonds(graph, a);
    const auto sb = switch_bonds(graph, b);
    bool shared = false;
    for (const auto& [sw, bond_a] : sa) {
        auto it = sb.find(sw);
        if (it == sb.end()) continue;
        shared = true;
        reach.switches.push_back(sw);
        reach.links += std::min(bond_a.links, it->second.links);
        reach.gbps += std::min(bond_a.gbps, it->second.gbps);
    }
    if (shared || sa.empty() || sb.empty()) return reach;
    // No common switch: one fabric when trunks join a switch of each side.
    const auto fabric = fabric_of(graph, sa.begin()->first);
    if (!fabric.count(sb.begin()->first)) return reach;
    Bond total_a, total_b;
    for (const auto& [sw, bond] : sa) total_a.links += bond.links, total_a.gbps += bond.gbps;
    for (const auto& [sw, bond] : sb) total_b.links += bond.links, total_b.gbps += bond.gbps;
    reach.links += std::min(total_a.links, total_b.links);
    reach.gbps += std::min(total_a.gbps, total_b.gbps);
    reach.through_trunks = true;
    return reach;
}

}  // namespace hwcomm
