#include "classes/link_classes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

#include "classes/member_routes.hpp"
#include "classes/route_shape.hpp"

namespace hwcomm {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// -1, 0, 1: runs of digits compare by value ("gpu2" < "gpu10"), the rest by character.
int natural_compare(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (is_digit(a[i]) && is_digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && is_digit(a[ie])) ++ie;
            while (je < b.size() && is_digit(b[je])) ++je;
            std::size_t iz = i, jz = j;  // leading zeros do not change the value
            while (iz + 1 < ie && a[iz] == '0') ++iz;
            while (jz + 1 < je && b[jz] == '0') ++jz;
            if (ie - iz != je - jz) return ie - iz < je - jz ? -1 : 1;
            if (int c = a.compare(iz, ie - iz, b, jz, je - jz); c != 0) return c < 0 ? -1 : 1;
            if (ie - i != je - j) return ie - i < je - j ? -1 : 1;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j] ? -1 : 1;
        ++i;
        ++j;
    }
    if (i == a.size() && j == b.size()) return 0;
    return i == a.size() ? -1 : 1;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) { return natural_compare(a, b) < 0; }

bool natural_less(const ClassMember& a, const ClassMember& b) {
    if (int c = natural_compare(a.src, b.src); c != 0) return c < 0;
    return natural_compare(a.dst, b.dst) < 0;
}

const LinkClass* ClassMap::find(const ClassMember& member) const {
    for (const LinkClass& c : classes)
        if (std::binary_search(c.members.begin(), c.members.end(), member,
                               [](const ClassMember& x, const ClassMember& y) { return natural_less(x, y); }))
            return &c;
    return nullptr;
}

std::vector<ClassMember> topology_members(const Graph& graph) {
    std::vector<const Vertex*> hosts;
    for (const Vertex* n : graph.of_kind(VertexKind::NumaNode))
        if (n->numa && (n->numa->cores > 0 || !n->numa->pus.empty()) && n->numa->memory_bytes != 0) hosts.push_back(n);
    const std::vector<const Vertex*> gpus = graph.of_kind(VertexKind::Gpu);
    std::vector<ClassMember> out;
    for (const auto* side : std::array<const std::vector<const Vertex*>*, 2>{&gpus, &hosts})
        for (const Vertex* a : *side)
            for (const Vertex* b : *side)
                if (a != b) out.push_back({a->id, b->id});
    for (const Vertex* n : hosts)
        for (const Vertex* g : gpus) {
            out.push_back({n->id, g->id});
            out.push_back({g->id, n->id});
        }
    return out;
}

ClassMap classify(const Graph& graph, const std::vector<ClassMember>& members) {
    const ShapeContext context(graph);
    std::map<std::string, LinkClass> by_signature;
    std::set<ClassMember> seen;
    ClassMap map;
    std::size_t unknown_rates = 0;
    for (const ClassMember& m : members) {
        if (!seen.insert(m).second) continue;
        const auto routes = member_routes(graph, m.src, m.dst);
        if (!routes) {
            map.notes.push_back(m.src + " -> " + m.dst + ": names no vertex of this graph, not classified");
            continue;
        }
        const bool group = is_group_endpoint(m.src) || is_group_endpoint(m.dst);
        const RouteShape shape = group ? set_shape(context, *routes)
                                       : route_shape(context, *routes->front().src, *routes->front().dst);
        LinkClass& c = by_signature[shape.signature];
        if (c.members.empty()) {
            c.signature = shape.signature;
            c.description = shape.description;
            c.rates_known = shape.rates_known;
        }
        c.members.push_back(m);
        unknown_rates += !shape.rates_known;
    }
    for (auto& [signature, c] : by_signature) {
        std::sort(c.members.begin(), c.members.end(),
                  [](const ClassMember& x, const ClassMember& y) { return natural_less(x, y); });
        map.classes.push_back(std::move(c));
    }
    std::sort(map.classes.begin(), map.classes.end(), [](const LinkClass& x, const LinkClass& y) {
        return natural_less(x.members.front(), y.members.front());
    });
    for (std::size_t i = 0; i < map.classes.size(); ++i) map.classes[i].id = "c" + std::to_string(i);
    if (unknown_rates > 0)
        map.notes.push_back("link rates unknown for " + std::to_string(unknown_rates) + " of " +
                            std::to_string(seen.size()) + " members: those are grouped by structure only");
    return map;
}

}  // namespace hwcomm
