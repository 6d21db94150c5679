#include "methods/shared_links.hpp"

#include <sstream>

#include "core/paths.hpp"

namespace hwcomm {

std::optional<Bottleneck> route_bottleneck(const Graph& graph, const Route& route) {
    if (!route.src || !route.dst || route.src == route.dst) return std::nullopt;
    const std::optional<Path> path = find_path(graph, route.src->id, route.dst->id);
    if (!path) return std::nullopt;
    std::optional<Bottleneck> best;
    for (std::size_t i = 0; i < path->edges.size(); ++i) {
        const Edge& e = graph.edges().at(path->edges[i]);
        if (e.gbps_per_direction <= 0) continue;
        if (!best || e.gbps_per_direction < best->gbps)
            best = Bottleneck{path->edges[i], path->vertices[i] == e.a, e.gbps_per_direction};
    }
    return best;
}

std::string SharedPair::shared_link(const Graph& graph) const {
    const Edge& e = graph.edges().at(shared.edge);
    return shared.a_to_b ? e.a + "->" + e.b : e.b + "->" + e.a;
}

std::string SharedPair::describe(const Graph& graph) const {
    const Edge& e = graph.edges().at(shared.edge);
    std::ostringstream out;
    out << first.src->id << "->" << first.dst->id << " and " << second.src->id << "->" << second.dst->id
        << " both cross " << (shared.a_to_b ? e.a + "->" + e.b : e.b + "->" + e.a) << " (" << shared.gbps
        << " GB/s per direction), the bottleneck of each";
    return out.str();
}

std::vector<SharedPair> pairs_sharing_bottleneck(const Graph& graph, const std::vector<Route>& routes) {
    std::vector<std::optional<Bottleneck>> necks;
    for (const Route& r : routes) necks.push_back(route_bottleneck(graph, r));
    std::vector<SharedPair> out;
    for (std::size_t i = 0; i < routes.size(); ++i)
        for (std::size_t j = i + 1; j < routes.size(); ++j) {
            if (!necks[i] || !necks[j]) continue;
            if (necks[i]->edge != necks[j]->edge || necks[i]->a_to_b != necks[j]->a_to_b) continue;
            out.push_back({routes[i], routes[j], *necks[i]});
        }
    return out;
}

}  // namespace hwcomm
