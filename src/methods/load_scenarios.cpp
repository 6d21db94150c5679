#include "methods/load_scenarios.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "classes/link_classes.hpp"

namespace hwcomm {

namespace {

std::string route_key(const Route& m, const std::vector<Route>& loads) {
    std::string k = m.src->id + ">" + m.dst->id;
    for (const Route& r : loads) k += "," + r.src->id + ">" + r.dst->id;
    return k;
}

ClassMember set_member(const std::vector<Route>& routes) {
    auto [src, dst] = route_set_ids(routes);
    return {src, dst};
}

// The representative route first, then the others in the resource's order.
std::vector<Route> ordered_from(const SharedResource& res, const Route& first) {
    std::vector<Route> out{first};
    for (const Route& r : res.routes)
        if (r.src != first.src || r.dst != first.dst) out.push_back(r);
    return out;
}

// The representative of each class of the routes crossing `res`, in class order.
std::vector<Route> route_representatives(const Graph& graph, const SharedResource& res) {
    std::vector<ClassMember> members;
    for (const Route& r : res.routes) members.push_back({r.src->id, r.dst->id});
    std::vector<Route> out;
    for (const LinkClass& c : classify(graph, members).classes)
        for (const Route& r : res.routes)
            if (r.src->id == c.members.front().src && r.dst->id == c.members.front().dst) out.push_back(r);
    return out;
}

}  // namespace

std::pair<std::string, std::string> route_set_ids(const std::vector<Route>& routes) {
    std::string src, dst;
    std::set<const Vertex*> srcs, dsts;
    for (const Route& r : routes) srcs.insert(r.src), dsts.insert(r.dst);
    for (const Route& r : routes) {
        src += (src.empty() ? "" : "+") + r.src->id;
        dst += (dst.empty() ? "" : "+") + r.dst->id;
    }
    // One end common to every route is written once ("numa0" -> "gpu0+gpu1").
    if (srcs.size() == 1) src = routes.front().src->id;
    if (dsts.size() == 1) dst = routes.front().dst->id;
    return {src, dst};
}

std::vector<ResourceClass> resource_classes(const Graph& graph, const std::vector<SharedResource>& resources) {
    // The route set's class, per kind of resource: classify() sees the routes,
    // the kind keeps an SMP link apart from a host side the same routes cross.
    std::map<std::string, std::vector<ClassMember>> by_kind;
    std::map<std::pair<std::string, ClassMember>, std::vector<const SharedResource*>> by_member;
    for (const SharedResource& res : resources) {
        const ClassMember m = set_member(res.routes);
        if (by_member[{res.kind, m}].empty()) by_kind[res.kind].push_back(m);
        by_member[{res.kind, m}].push_back(&res);
    }
    std::vector<ResourceClass> out;
    for (const auto& [kind, members] : by_kind)
        for (const LinkClass& c : classify(graph, members).classes) {
            ResourceClass rc{kind + " | " + c.signature, kind + ": " + c.description, {}};
            for (const ClassMember& m : c.members)
                for (const SharedResource* res : by_member.at({kind, m})) rc.members.push_back(res);
            out.push_back(std::move(rc));
        }
    // Representatives in the order the resources came (host sides first, then edges).
    for (ResourceClass& rc : out)
        std::sort(rc.members.begin(), rc.members.end());  // pointers into one vector: input order
    std::sort(out.begin(), out.end(),
              [](const ResourceClass& a, const ResourceClass& b) { return a.members.front() < b.members.front(); });
    return out;
}

std::vector<LoadScenario> class_load_scenarios(const Graph& graph, const std::vector<SharedResource>& resources) {
    std::vector<LoadScenario> out;
    std::set<std::string> seen;
    for (const ResourceClass& rc : resource_classes(graph, resources)) {
        const SharedResource& res = *rc.members.front();
        for (const Route& measured : route_representatives(graph, res)) {
            if (seen.insert(route_key(measured, {})).second) out.push_back({measured, {}, ""});
            const std::vector<Route> routes = ordered_from(res, measured);
            const std::size_t others = routes.size() - 1;
            std::set<std::size_t> counts{1, (others + 1) / 2, others};
            for (std::size_t j : counts) {
                if (j == 0) continue;
                std::vector<Route> loads(routes.begin() + 1, routes.begin() + 1 + static_cast<long>(j));
                if (seen.insert(route_key(measured, loads)).second) out.push_back({measured, std::move(loads), res.label});
            }
        }
    }
    return out;
}

std::vector<std::size_t> lane_counts(std::size_t routes) {
    std::vector<std::size_t> counts;
    for (std::size_t n = 1; n <= std::min<std::size_t>(routes, 4); ++n) counts.push_back(n);
    for (std::size_t n = 6; n < routes; n = (n * 3 + 1) / 2) counts.push_back(n);
    if (routes > 4) counts.push_back(routes);
    return counts;
}

std::vector<LaneSet> lane_sweeps(const Graph& graph, const std::vector<SharedResource>& resources) {
    std::vector<LaneSet> out;
    std::set<std::set<std::pair<std::string, std::string>>> seen;
    for (const ResourceClass& rc : resource_classes(graph, resources)) {
        const SharedResource& res = *rc.members.front();
        const auto reps = route_representatives(graph, res);
        const std::vector<Route> routes = ordered_from(res, reps.front());
        for (const std::size_t n : lane_counts(routes.size())) {
            std::vector<Route> lanes(routes.begin(), routes.begin() + static_cast<long>(n));
            std::set<std::pair<std::string, std::string>> key;
            for (const Route& r : lanes) key.insert({r.src->id, r.dst->id});
            if (!seen.insert(key).second) continue;
            auto [src, dst] = route_set_ids(lanes);
            out.push_back({std::move(lanes), res.label, src, dst});
        }
    }
    return out;
}

}  // namespace hwcomm
