#include "classes/route_shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include "core/paths.hpp"

namespace hwcomm {

namespace {

// Rates to a thousandth of a GB/s: enough to tell every stated rate apart,
// coarse enough that two computations of one rate never split a class.
std::string rate_text(double gbps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", gbps);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

std::string noun(const Vertex& v) {
    switch (v.kind) {
        case VertexKind::Package: return "CPU package";
        case VertexKind::NumaNode: return "NUMA node";
        case VertexKind::HostBridge: return "host bridge";
        case VertexKind::PciBridge: return "PCIe bridge";
        case VertexKind::PciDevice: return "PCI device";
        case VertexKind::Gpu: return "GPU";
        case VertexKind::NvSwitch: return "NVSwitch";
        case VertexKind::NvSwitchFabric: return "NVSwitch fabric";
        case VertexKind::BlockDevice: return "disk";
        case VertexKind::NetworkInterface: return "NIC";
    }
    return "vertex";
}

std::string attr(const Vertex& v, const char* key) {
    auto it = v.attrs.find(key);
    return it == v.attrs.end() ? "" : it->second;
}

// What an endpoint is, beyond its place: a GPU's model, whether a NUMA node
// has CPUs (GPU memory nodes have none), a PCI function's device id.
std::string end_token(const Vertex& v) {
    std::string t = to_string(v.kind);
    if (v.kind == VertexKind::Gpu) {
        const std::string model = v.gpu && !v.gpu->model.empty() ? v.gpu->model : attr(v, "device_id");
        if (!model.empty()) t += "(" + model + ")";
    } else if (v.kind == VertexKind::NumaNode) {
        t += v.numa && v.numa->cores == 0 && v.numa->pus.empty() ? "(no-cpu)" : "(cpu)";
    } else if (const std::string id = attr(v, "device_id"); !id.empty()) {
        t += "(" + attr(v, "vendor_id") + ":" + id + ")";
    }
    return t;
}

bool cpu_side(const Vertex& v) { return v.kind == VertexKind::Package || v.kind == VertexKind::NumaNode; }

std::string edge_token(const Edge& e, bool with_rate) {
    std::string t = to_string(e.kind);
    if (e.internal) t += "(internal)";
    if (e.pcie && (e.pcie->generation > 0 || e.pcie->width > 0))
        t += "(gen" + std::to_string(e.pcie->generation) + "x" + std::to_string(e.pcie->width) + ")";
    if (e.nvlink) t += "(" + e.nvlink->version + "x" + std::to_string(e.nvlink->links) + ")";
    if (e.kind == EdgeKind::Smp && e.smp_distance) t += "(d" + std::to_string(e.smp_distance) + ")";
    if (with_rate && e.gbps_per_direction > 0) t += "@" + rate_text(e.gbps_per_direction);
    return t;
}

// "PCIe Gen3 x16 15.754 GB/s", "NVLink 2.0 x2 50 GB/s" for people.
std::string edge_words(const Edge& e) {
    std::string s;
    switch (e.kind) {
        case EdgeKind::Pcie:
            s = "PCIe";
            if (e.pcie && e.pcie->generation > 0) s += " Gen" + std::to_string(e.pcie->generation);
            if (e.pcie && e.pcie->width > 0) s += " x" + std::to_string(e.pcie->width);
            break;
        case EdgeKind::NvLink:
            s = "NVLink";
            if (e.nvlink && !e.nvlink->version.empty()) s += " " + e.nvlink->version;
            if (e.nvlink) s += " x" + std::to_string(e.nvlink->links);
            break;
        case EdgeKind::Xgmi: s = "XGMI"; break;
        default: s = to_string(e.kind); break;
    }
    return e.gbps_per_direction > 0 ? s + " " + rate_text(e.gbps_per_direction) + " GB/s" : s + ", rate unknown";
}

std::string nvlink_version_of(const Graph& graph, const std::string& gpu) {
    for (const Edge* e : graph.edges_of(gpu))
        if (e->kind == EdgeKind::NvLink && e->nvlink && !e->nvlink->version.empty()) return e->nvlink->version;
    return "";
}

int direct_links(const Graph& graph, const std::string& a, const std::string& b) {
    int links = 0;
    for (const Edge& e : graph.edges())
        if (e.kind == EdgeKind::NvLink && ((e.a == a && e.b == b) || (e.a == b && e.b == a)))
            links += e.nvlink && e.nvlink->links > 0 ? e.nvlink->links : 1;
    return links;
}

RouteShape nvlink_shape(const Graph& graph, const Vertex& src, const Vertex& dst, const NvLinkReach& reach) {
    RouteShape s;
    s.rates_known = reach.gbps > 0;
    const int direct = direct_links(graph, src.id, dst.id);
    s.signature = "nvlink links=" + std::to_string(reach.links) + " direct=" + std::to_string(direct) +
                  " switches=" + std::to_string(reach.switches.size()) + (reach.through_trunks ? " trunks" : "");
    if (s.rates_known) s.signature += " @" + rate_text(reach.gbps);
    const std::string version = nvlink_version_of(graph, src.id);
    std::string how = direct > 0 && reach.switches.empty() ? "direct" : "";
    if (!reach.switches.empty())
        how = "through " + std::to_string(reach.switches.size()) + " NVSwitch" + (reach.switches.size() > 1 ? "es" : "");
    if (reach.through_trunks) how = "across the NVSwitch fabric";
    if (direct > 0 && !reach.switches.empty()) how = "direct and " + how;
    s.description = "NV" + std::to_string(reach.links) + " " + how + (version.empty() ? "" : ", NVLink " + version) +
                    ", " + (s.rates_known ? rate_text(reach.gbps) + " GB/s" : "rate unknown");
    return s;
}

int smp_hops(const Graph& graph, const Path& path) {
    int hops = 0;
    for (std::size_t i : path.edges) hops += graph.edges()[i].kind == EdgeKind::Smp;
    return hops;
}

}  // namespace

ShapeContext::ShapeContext(const Graph& graph) : graph_(graph) {
    // Each GPU counts once for every bridge above it in the PCIe tree.
    for (const Vertex* gpu : graph.of_kind(VertexKind::Gpu)) {
        std::set<std::string> seen{gpu->id};
        for (std::string cur = gpu->id;;) {
            std::string up;
            for (const Edge* e : graph.edges_of(cur))
                if (e->kind == EdgeKind::Pcie && e->b == cur) up = e->a;
            if (up.empty() || !seen.insert(up).second) break;
            ++gpus_behind_[up];
            cur = up;
        }
    }
}

int ShapeContext::gpus_behind(const std::string& id) const {
    auto it = gpus_behind_.find(id);
    return it == gpus_behind_.end() ? 0 : it->second;
}

RouteShape route_shape(const ShapeContext& context, const Vertex& src, const Vertex& dst) {
    const Graph& graph = context.graph();
    const std::string ends = end_token(src) + ">" + end_token(dst) + " ";
    const std::string nouns = noun(src) + " -> " + noun(dst);
    if (src.id == dst.id) {
        const std::string model = src.gpu && !src.gpu->model.empty() ? " (" + src.gpu->model + ")" : "";
        return {ends + "self", noun(src) + " to itself" + model, true};
    }
    const std::string label = classify_path(graph, src.id, dst.id).label();
    const std::optional<Path> path = find_path(graph, src.id, dst.id);
    if (!path) return {ends + "unconnected " + label, nouns + ", not connected in the graph", true};
    if (path->nvlinks > 0) {
        RouteShape s = nvlink_shape(graph, src, dst, nvlink_between(graph, src.id, dst.id));
        s.signature = ends + s.signature;
        s.description = nouns + ", " + s.description;
        return s;
    }
    RouteShape s;
    s.rates_known = !path->unknown_edge.has_value();
    std::string hops;
    int shared_switch = 0;
    for (std::size_t k = 0; k < path->edges.size(); ++k) {
        const Edge& e = graph.edges()[path->edges[k]];
        const Vertex& next = *graph.find(path->vertices[k + 1]);
        hops += edge_token(e, s.rates_known) + ">";
        if (k + 1 == path->edges.size()) break;
        hops += std::string(to_string(next.kind));
        if (next.kind == VertexKind::HostBridge || next.kind == VertexKind::PciBridge) {
            hops += "(gpus=" + std::to_string(context.gpus_behind(next.id)) + ")";
            if (next.kind == VertexKind::PciBridge) shared_switch = std::max(shared_switch, context.gpus_behind(next.id));
        }
        hops += " ";
    }
    std::string relation;
    std::string relation_words;
    const int smp = smp_hops(graph, *path);
    if (cpu_side(src) != cpu_side(dst)) {
        const bool local = label == "PHB";
        relation = local ? " host=local" : " host=remote smp=" + std::to_string(smp);
        relation_words = local ? "local" : "remote, " + std::to_string(smp) + " SMP hop" + (smp == 1 ? "" : "s");
    } else if (smp > 0) {
        relation = " smp=" + std::to_string(smp);
        relation_words = std::to_string(smp) + " SMP hop" + (smp == 1 ? "" : "s");
    }
    s.signature = ends + label + relation + " " + hops;
    s.description = nouns + ", " + (relation_words.empty() ? label : relation_words + " (" + label + ")");
    if (shared_switch >= 2) s.description += ", PCIe switch shared by " + std::to_string(shared_switch) + " GPUs";
    if (!s.rates_known) {
        s.description += ", link rate unknown: grouped by structure";
        return s;
    }
    for (std::size_t i : path->edges) {
        const Edge& e = graph.edges()[i];
        if (path->bottleneck_gbps > 0 && std::fabs(e.gbps_per_direction - path->bottleneck_gbps) < 1e-9) {
            s.description += ", bottleneck " + edge_words(e);
            break;
        }
    }
    return s;
}

RouteShape set_shape(const ShapeContext& context, const std::vector<MemberRoute>& routes) {
    const Graph& graph = context.graph();
    std::map<std::string, std::pair<int, std::string>> by_signature;  // signature -> count, description
    std::set<const Vertex*> sources, destinations;
    std::map<std::pair<std::size_t, bool>, int> crossings;  // (edge, a->b) -> routes
    RouteShape out;
    for (const MemberRoute& r : routes) {
        const RouteShape one = route_shape(context, *r.src, *r.dst);
        out.rates_known = out.rates_known && one.rates_known;
        auto& entry = by_signature[one.signature];
        ++entry.first;
        entry.second = one.description;
        sources.insert(r.src);
        destinations.insert(r.dst);
        const std::optional<Path> path = r.src == r.dst ? std::nullopt : find_path(graph, r.src->id, r.dst->id);
        if (!path || path->nvlinks > 0) continue;  // NVLink reach uses every bond at once: no one edge to share
        for (std::size_t k = 0; k < path->edges.size(); ++k) {
            const Edge& e = graph.edges()[path->edges[k]];
            if (e.internal || e.kind == EdgeKind::Membership || e.kind == EdgeKind::Attach) continue;
            ++crossings[{path->edges[k], path->vertices[k] == e.a}];
        }
    }
    std::multiset<std::string> shared;
    for (const auto& [key, count] : crossings)
        if (count >= 2) shared.insert(std::to_string(count) + "x" + edge_token(graph.edges()[key.first], out.rates_known));
    out.signature = "set routes=" + std::to_string(routes.size()) + " srcs=" + std::to_string(sources.size()) +
                    " dsts=" + std::to_string(destinations.size()) + " [";
    for (const auto& [sig, entry] : by_signature) out.signature += std::to_string(entry.first) + "x{" + sig + "}";
    out.signature += "] shared [";
    for (const std::string& s : shared) out.signature += s + " ";
    out.signature += "]";
    out.description = std::to_string(routes.size()) + " routes at once";
    for (const auto& [sig, entry] : by_signature)
        out.description += "; " + std::to_string(entry.first) + " x " + entry.second;
    if (!shared.empty()) out.description += "; " + std::to_string(shared.size()) + " edge(s) shared";
    return out;
}

}  // namespace hwcomm
