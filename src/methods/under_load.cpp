#include "methods/under_load.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/paths.hpp"

namespace hwcomm {

namespace {

constexpr std::size_t kMaxSpecLength = 200;

// The spec as it may appear in a one-line message: printable, bounded.
std::string shown(const std::string& text) {
    std::string out;
    for (char c : text.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return text.size() > 80 ? out + "..." : out;
}

[[noreturn]] void bad(const std::string& text, const std::string& why) {
    throw UsageError("--under-load '" + shown(text) + "': " + why + " (expected e.g. 'memcpy-h2d numa0->gpu1', "
                     "'all-to-host', 'all-to-one gpu0')");
}

bool is_pair_method(const std::string& m) { return m == "memcpy-h2d" || m == "memcpy-d2h" || m == "memcpy-peer"; }
bool is_host_fan(const std::string& m) { return m == "all-to-host" || m == "host-to-all"; }
bool is_gpu_fan(const std::string& m) { return m == "all-to-one" || m == "one-to-all"; }

const Vertex& endpoint(const Graph& graph, const LoadSpec& spec, const std::string& id, VertexKind kind) {
    const Vertex* v = graph.find(id);
    if (!v) throw UsageError("--under-load '" + shown(spec.text) + "': no vertex '" + shown(id) + "' on this machine");
    if (v->kind != kind)
        throw UsageError("--under-load '" + shown(spec.text) + "': " + id + " is not a " +
                         (kind == VertexKind::Gpu ? "GPU" : "NUMA node"));
    if (kind == VertexKind::Gpu) {
        const auto gpus = load_gpus(graph);
        if (std::find(gpus.begin(), gpus.end(), v) == gpus.end())
            throw UsageError("--under-load '" + shown(spec.text) + "': " + id + " is not a CUDA GPU");
    }
    return *v;
}

// A GPU's NVLinks to switches, all bonds together: links and GB/s per direction.
std::pair<int, double> nvlink_total(const Graph& graph, const std::string& gpu) {
    int links = 0;
    double gbps = 0;
    for (const Edge* e : graph.edges_of(gpu)) {
        if (e->kind != EdgeKind::NvLink || e->internal) continue;
        links += e->nvlink && e->nvlink->links > 0 ? e->nvlink->links : 1;
        gbps += e->gbps_per_direction;
    }
    return {links, gbps};
}

}  // namespace

const std::vector<std::string>& load_spec_methods() {
    static const std::vector<std::string> methods{"memcpy-h2d",  "memcpy-d2h", "memcpy-peer", "all-to-host",
                                                  "host-to-all", "all-to-one", "one-to-all"};
    return methods;
}

LoadSpec parse_load_spec(const std::string& text) {
    if (text.size() > kMaxSpecLength) bad(text, "longer than " + std::to_string(kMaxSpecLength) + " characters");
    for (char c : text)
        if (c == '\n' || c == '\r' || c == '\0') bad(text, "a control character");
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.empty()) bad(text, "empty");
    LoadSpec spec;
    spec.text = text;
    spec.method = words[0];
    const auto& known = load_spec_methods();
    if (std::find(known.begin(), known.end(), spec.method) == known.end()) bad(text, "unknown load '" + shown(words[0]) + "'");
    if (words.size() > 2) bad(text, "unexpected '" + shown(words[2]) + "'");
    const std::string arg = words.size() == 2 ? words[1] : "";
    if (is_pair_method(spec.method)) {
        const auto arrow = arg.find("->");
        if (arrow == std::string::npos) bad(text, spec.method + " needs SRC->DST");
        spec.src = arg.substr(0, arrow);
        spec.dst = arg.substr(arrow + 2);
        if (spec.src.empty() || spec.dst.empty() || spec.dst.find("->") != std::string::npos)
            bad(text, spec.method + " needs SRC->DST");
        if (spec.src == spec.dst) bad(text, "source and destination are the same");
        return spec;
    }
    if (arg.find("->") != std::string::npos) bad(text, spec.method + " takes one endpoint, not a route");
    if (is_gpu_fan(spec.method) && arg.empty()) bad(text, spec.method + " needs the GPU it joins, e.g. gpu0");
    spec.src = arg;
    return spec;
}

std::vector<const Vertex*> load_gpus(const Graph& graph) {
    std::vector<const Vertex*> out;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu)) {
        const auto vendor = v->attrs.find("gpu_vendor");
        if (v->gpu && v->gpu->cuda_ordinal >= 0 && (vendor == v->attrs.end() || vendor->second == "NVIDIA"))
            out.push_back(v);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Vertex* a, const Vertex* b) { return a->gpu->cuda_ordinal < b->gpu->cuda_ordinal; });
    return out;
}

std::vector<const Vertex*> load_host_nodes(const Graph& graph) {
    std::vector<const Vertex*> out;
    for (const Vertex* v : graph.of_kind(VertexKind::NumaNode))
        if (v->os_index >= 0 && !(v->numa && v->numa->memory_bytes == 0)) out.push_back(v);
    return out;
}

std::vector<LoadRoute> resolve_load_spec(const Graph& graph, const LoadSpec& spec) {
    std::vector<LoadRoute> out;
    const auto add = [&](const Vertex& s, const Vertex& d, LoadDirection dir) { out.push_back({&s, &d, dir, spec.text}); };
    if (spec.method == "memcpy-h2d") {
        add(endpoint(graph, spec, spec.src, VertexKind::NumaNode), endpoint(graph, spec, spec.dst, VertexKind::Gpu),
            LoadDirection::HostToGpu);
    } else if (spec.method == "memcpy-d2h") {
        add(endpoint(graph, spec, spec.src, VertexKind::Gpu), endpoint(graph, spec, spec.dst, VertexKind::NumaNode),
            LoadDirection::GpuToHost);
    } else if (spec.method == "memcpy-peer") {
        add(endpoint(graph, spec, spec.src, VertexKind::Gpu), endpoint(graph, spec, spec.dst, VertexKind::Gpu),
            LoadDirection::GpuToGpu);
    } else if (is_host_fan(spec.method)) {
        const auto hosts = load_host_nodes(graph);
        if (spec.src.empty() && hosts.empty()) bad(spec.text, "this machine has no NUMA node with memory");
        const Vertex& numa = spec.src.empty() ? *hosts.front() : endpoint(graph, spec, spec.src, VertexKind::NumaNode);
        for (const Vertex* g : load_gpus(graph)) {
            if (spec.method == "all-to-host") add(*g, numa, LoadDirection::GpuToHost);
            else add(numa, *g, LoadDirection::HostToGpu);
        }
    } else {
        const Vertex& one = endpoint(graph, spec, spec.src, VertexKind::Gpu);
        for (const Vertex* g : load_gpus(graph)) {
            if (g == &one) continue;
            if (spec.method == "all-to-one") add(*g, one, LoadDirection::GpuToGpu);
            else add(one, *g, LoadDirection::GpuToGpu);
        }
    }
    if (out.empty()) bad(spec.text, "no CUDA GPU on this machine for it");
    return out;
}

std::vector<LoadRoute> resolve_load_specs(const Graph& graph, const std::vector<LoadSpec>& specs) {
    std::vector<LoadRoute> out;
    for (const LoadSpec& spec : specs) {
        auto routes = resolve_load_spec(graph, spec);
        out.insert(out.end(), routes.begin(), routes.end());
    }
    return out;
}

std::vector<SharedResource> shared_resources(const Graph& graph, const std::vector<Route>& routes, bool host_side) {
    // Resource key -> indexes of the routes crossing it; a key per (edge, direction).
    std::map<std::pair<std::size_t, bool>, std::vector<std::size_t>> by_edge;
    std::map<std::string, std::vector<std::size_t>> by_host;
    std::map<std::pair<std::string, bool>, std::vector<std::size_t>> by_nvlink;  // (GPU, out of it) -> routes
    for (std::size_t i = 0; i < routes.size(); ++i) {
        const Route& r = routes[i];
        if (!r.src || !r.dst || r.src == r.dst) continue;
        if (host_side) {
            const Vertex* host = r.src->kind == VertexKind::NumaNode ? r.src : r.dst;
            if (host->kind == VertexKind::NumaNode) by_host[host->id].push_back(i);
        }
        const std::optional<Path> path = find_path(graph, r.src->id, r.dst->id);
        if (!path) continue;
        // Through NVSwitches a copy spreads over all of each GPU's bonds, not
        // the one route drawn: what it shares is its source's NVLinks out and
        // its destination's NVLinks in.
        if (path->nvlinks > 0) {
            const NvLinkReach reach = nvlink_between(graph, r.src->id, r.dst->id);
            if (!reach.switches.empty() || reach.through_trunks) {
                by_nvlink[{r.src->id, true}].push_back(i);
                by_nvlink[{r.dst->id, false}].push_back(i);
                continue;
            }
        }
        for (std::size_t k = 0; k < path->edges.size(); ++k) {
            const Edge& e = graph.edges().at(path->edges[k]);
            by_edge[{path->edges[k], path->vertices[k] == e.a}].push_back(i);
        }
    }
    // One resource per distinct route set; the first found names it, unless a
    // later edge of the same set is a likelier limit: one that states a rate
    // (the smallest wins), else the SMP link over a membership edge.
    struct Named {
        SharedResource resource;
        int rank = 0;  // 2: states a rate, 1: SMP link, 0: anything else
        double gbps = 0;
    };
    std::map<std::vector<std::size_t>, Named> sets;
    std::vector<std::vector<std::size_t>> order;
    const auto offer = [&](const std::vector<std::size_t>& idx, const std::string& label, const std::string& kind,
                           double gbps, int rank) {
        if (idx.size() < 2) return;
        auto it = sets.find(idx);
        if (it == sets.end()) {
            Named named{{label, {}, kind}, rank, gbps};
            for (std::size_t i : idx) named.resource.routes.push_back(routes[i]);
            sets.emplace(idx, std::move(named));
            order.push_back(idx);
        } else if (rank > it->second.rank || (rank == 2 && gbps < it->second.gbps)) {
            it->second.resource.label = label;
            it->second.resource.kind = kind;
            it->second.rank = rank;
            it->second.gbps = gbps;
        }
    };
    for (const auto& [host, idx] : by_host) offer(idx, "host side of " + host, "host side", 0, 0);
    for (const auto& [end, idx] : by_nvlink) {
        const auto [links, gbps] = nvlink_total(graph, end.first);
        std::ostringstream label, kind;
        label << "NVLinks " << (end.second ? "out of " : "into ") << end.first << " (" << links << " links";
        kind << "nvlinks " << (end.second ? "out" : "in") << " x" << links;
        if (gbps > 0) label << ", " << gbps << " GB/s", kind << " " << gbps << " GB/s";
        label << ")";
        offer(idx, label.str(), kind.str(), gbps, gbps > 0 ? 2 : 0);
    }
    for (const auto& [key, idx] : by_edge) {
        const Edge& e = graph.edges().at(key.first);
        std::ostringstream label, kind;
        label << "edge " << (key.second ? e.a + "->" + e.b : e.b + "->" + e.a);
        kind << "edge " << to_string(e.kind) << (e.internal ? " internal" : "");
        if (e.gbps_per_direction > 0) {
            label << " (" << e.gbps_per_direction << " GB/s)";
            kind << " " << e.gbps_per_direction << " GB/s";
        }
        offer(idx, label.str(), kind.str(), e.gbps_per_direction,
              e.gbps_per_direction > 0 ? 2 : e.kind == EdgeKind::Smp ? 1 : 0);
    }
    std::vector<SharedResource> out;
    for (const auto& idx : order) out.push_back(sets.at(idx).resource);
    return out;
}

std::vector<LoadScenario> exhaustive_load_scenarios(const std::vector<SharedResource>& resources) {
    std::vector<LoadScenario> out;
    // Two resources may yield the same measurement (a subset of routes that
    // share a second edge): measured once, named by the first.
    std::set<std::string> seen;
    const auto key = [](const Route& m, const std::vector<Route>& loads) {
        std::string k = m.src->id + ">" + m.dst->id;
        for (const Route& r : loads) k += "," + r.src->id + ">" + r.dst->id;
        return k;
    };
    for (const SharedResource& res : resources)
        for (const Route& measured : res.routes) {
            if (seen.insert(key(measured, {})).second) out.push_back({measured, {}, ""});
            std::vector<Route> others;
            for (const Route& r : res.routes)
                if (r.src != measured.src || r.dst != measured.dst) others.push_back(r);
            for (std::size_t j = 1; j <= others.size(); ++j) {
                std::vector<Route> loads(others.begin(), others.begin() + static_cast<long>(j));
                if (seen.insert(key(measured, loads)).second) out.push_back({measured, std::move(loads), res.label});
            }
        }
    return out;
}

std::vector<Route> host_to_gpu_routes(const Graph& graph) {
    std::vector<Route> out;
    for (const Vertex* n : load_host_nodes(graph))
        for (const Vertex* g : load_gpus(graph)) out.push_back({n, g});
    return out;
}

std::vector<Route> gpu_to_host_routes(const Graph& graph) {
    std::vector<Route> out;
    for (const Vertex* n : load_host_nodes(graph))
        for (const Vertex* g : load_gpus(graph)) out.push_back({g, n});
    return out;
}

}  // namespace hwcomm
