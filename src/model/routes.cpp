#include "model/routes.hpp"

#include "analyze/record_facts.hpp"
#include "catalog/method_catalog.hpp"
#include "core/paths.hpp"

namespace hwcomm::model {

namespace {

void append_route(const Graph& g, const std::string& a, const std::string& b, std::vector<Crossing>& out) {
    if (a == b || !g.find(a) || !g.find(b)) return;
    const auto path = find_path(g, a, b);
    if (!path) return;
    for (std::size_t i = 0; i < path->edges.size(); ++i) {
        const Edge& e = g.edges()[path->edges[i]];
        if (e.internal) continue;
        out.push_back({path->vertices[i], path->vertices[i + 1], path->edges[i]});
    }
}

Record pseudo_record(const std::string& method, const std::string& src, const std::string& dst,
                     const std::map<std::string, std::string>& params) {
    Record r;
    r.method = method, r.src = src, r.dst = dst, r.params = params;
    return r;
}

}  // namespace

std::vector<Crossing> route_crossings(const Graph& g, const std::string& method, const std::string& src,
                                      const std::string& dst, const std::map<std::string, std::string>& params) {
    std::vector<Crossing> out;
    if (!g.find(src) || !g.find(dst)) return out;
    const Record r = pseudo_record(method, src, dst, params);
    if (analyze::is_gpu_id(src) && analyze::is_gpu_id(dst) && analyze::peer_of(r) == "off") {
        const auto nodes = numa_nodes_of(g, src);
        if (nodes.empty()) return out;
        append_route(g, src, nodes.front(), out);
        append_route(g, nodes.front(), dst, out);
        return out;
    }
    append_route(g, src, dst, out);
    return out;
}

PathBottleneck path_bottleneck(const Graph& g, const std::string& method, const std::string& src,
                               const std::string& dst, const std::map<std::string, std::string>& params) {
    PathBottleneck b;
    if (!g.find(src) || !g.find(dst)) return b;
    // The method's duplex rule doubles the limit (the built-in row: a model keeps no rows of its own).
    const auto limit = analyze::path_limit(pseudo_record(method, src, dst, params), builtin_catalog().find(method), g);
    if (!limit) return b;
    b.gbps = limit->gbps;
    b.what = limit->what;
    double smallest = 0;
    for (const Crossing& c : route_crossings(g, method, src, dst, params)) {
        const double rate = g.edges()[c.edge].gbps_per_direction;
        if (rate > 0 && (smallest == 0 || rate < smallest)) smallest = rate, b.edge = c.name();
    }
    return b;
}

}  // namespace hwcomm::model
