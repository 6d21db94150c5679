#include "core/paths.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>

namespace hwcomm {

namespace {

const Vertex& require(const Graph& graph, const std::string& id) {
    const Vertex* v = graph.find(id);
    if (!v) throw std::invalid_argument("no vertex '" + id + "' in the topology");
    return *v;
}

// The parent in the PCIe tree (the controller for a disk or NIC).
std::string upstream_of(const Graph& graph, const std::string& id) {
    for (const Edge* e : graph.edges_of(id))
        if ((e->kind == EdgeKind::Pcie || e->kind == EdgeKind::Attach) && e->b == id) return e->a;
    return "";
}

// id, its parent, ... up to and including the host bridge; empty when no host bridge is reached.
std::vector<std::string> pcie_chain(const Graph& graph, const std::string& id) {
    std::vector<std::string> chain{id};
    for (std::string cur = id; graph.find(cur)->kind != VertexKind::HostBridge;) {
        cur = upstream_of(graph, cur);
        if (cur.empty() || std::find(chain.begin(), chain.end(), cur) != chain.end()) return {};
        chain.push_back(cur);
    }
    return chain;
}

bool relays(VertexKind kind) {
    switch (kind) {
        case VertexKind::Package:
        case VertexKind::NumaNode:
        case VertexKind::HostBridge:
        case VertexKind::PciBridge:
        case VertexKind::NvSwitch:
        case VertexKind::NvSwitchFabric:
            return true;
        default:
            return false;
    }
}

std::string attr(const Vertex& v, const char* key) {
    auto it = v.attrs.find(key);
    return it == v.attrs.end() ? "" : it->second;
}

// Links that could limit: PCIe, NVLink, XGMI edges that are not internal.
// Membership and attachment are locality, not links; SMP rates no source gives.
// A PCIe edge into a root or downstream port is internal too (graphs written
// before edges said so).
bool has_own_rate(const Graph& graph, const Edge& e) {
    if (e.internal) return false;
    if (e.kind == EdgeKind::Pcie) {
        const std::string port = attr(*graph.find(e.b), "pcie_port");
        return port != "root" && port != "downstream";
    }
    return e.kind == EdgeKind::NvLink || e.kind == EdgeKind::Xgmi;
}

bool is_cpu_side(VertexKind kind) { return kind == VertexKind::Package || kind == VertexKind::NumaNode; }

bool intersect(const std::vector<std::string>& x, const std::vector<std::string>& y) {
    for (const auto& s : x)
        if (std::find(y.begin(), y.end(), s) != y.end()) return true;
    return false;
}

// PIX or PXB for two vertices below one host bridge, hb not traversed.
PathClass bridge_class(const Graph& graph, const std::vector<std::string>& ca, const std::vector<std::string>& cb) {
    const std::set<std::string> in_a(ca.begin(), ca.end());
    std::string lca;
    for (const auto& v : cb)
        if (in_a.count(v)) {
            lca = v;
            break;
        }
    if (graph.find(lca)->kind == VertexKind::HostBridge) return PathClass::Phb;
    // Bridges strictly between the endpoints, a switch's ports counted once.
    std::set<std::string> switches;
    auto collect = [&](const std::vector<std::string>& chain) {
        for (std::size_t i = 0; i < chain.size(); ++i) {
            const std::string& id = chain[i];
            const Vertex& v = *graph.find(id);
            if (i > 0 && v.kind == VertexKind::PciBridge)
                switches.insert(attr(v, "pcie_port") == "downstream" ? upstream_of(graph, id) : id);
            if (id == lca) break;
        }
    };
    collect(ca);
    collect(cb);
    return switches.size() <= 1 ? PathClass::Pix : PathClass::Pxb;
}

}  // namespace

std::string PathClassification::label() const {
    switch (kind) {
        case PathClass::Self: return "X";
        case PathClass::NvLink: return "NV" + std::to_string(nvlinks);
        case PathClass::Xgmi: return "XGMI";
        case PathClass::Pix: return "PIX";
        case PathClass::Pxb: return "PXB";
        case PathClass::Phb: return "PHB";
        case PathClass::Node: return "NODE";
        case PathClass::Sys: return "SYS";
    }
    return "?";
}

std::string host_bridge_of(const Graph& graph, const std::string& id) {
    require(graph, id);
    auto chain = pcie_chain(graph, id);
    return chain.empty() ? "" : chain.back();
}

std::vector<std::string> numa_nodes_of(const Graph& graph, const std::string& id) {
    const Vertex& v = require(graph, id);
    std::set<std::string> out;
    auto members = [&](const std::string& of, VertexKind want) {
        for (const Edge* e : graph.edges_of(of)) {
            if (e->kind != EdgeKind::Membership) continue;
            const std::string other = e->a == of ? e->b : e->a;
            if (graph.find(other)->kind == want) out.insert(other);
        }
    };
    if (v.kind == VertexKind::NumaNode) out.insert(id);
    else if (v.kind == VertexKind::Package) members(id, VertexKind::NumaNode);
    else if (auto hb = host_bridge_of(graph, id); !hb.empty()) members(hb, VertexKind::NumaNode);
    else if (auto up = upstream_of(graph, id); !up.empty() && graph.find(up)->kind == VertexKind::NumaNode)
        out.insert(up);  // a disk or NIC attached to its NUMA node directly (no PCI parent)
    if (out.empty() && v.gpu)
        for (int n : v.gpu->numa_affinity)
            if (graph.find("numa" + std::to_string(n))) out.insert("numa" + std::to_string(n));
    return {out.begin(), out.end()};
}

PathClassification classify_path(const Graph& graph, const std::string& a, const std::string& b) {
    const Vertex& va = require(graph, a);
    const Vertex& vb = require(graph, b);
    if (a == b) return {PathClass::Self, 0};
    // NV# between GPUs, and for a GPU's own hop into an NVSwitch.
    const bool gpu_pair = va.kind == VertexKind::Gpu && vb.kind == VertexKind::Gpu;
    const bool gpu_switch = (va.kind == VertexKind::Gpu && vb.kind == VertexKind::NvSwitch) ||
                            (vb.kind == VertexKind::Gpu && va.kind == VertexKind::NvSwitch);
    if (gpu_pair || gpu_switch)
        if (int links = nvlink_between(graph, a, b).links) return {PathClass::NvLink, links};
    if (gpu_pair && graph.edge_between(a, b, EdgeKind::Xgmi)) return {PathClass::Xgmi, 0};
    const bool local = intersect(numa_nodes_of(graph, a), numa_nodes_of(graph, b));
    if (is_cpu_side(va.kind) || is_cpu_side(vb.kind)) return {local ? PathClass::Phb : PathClass::Sys, 0};
    const auto ca = pcie_chain(graph, a);
    const auto cb = pcie_chain(graph, b);
    if (!ca.empty() && !cb.empty() && ca.back() == cb.back()) return {bridge_class(graph, ca, cb), 0};
    return {local ? PathClass::Node : PathClass::Sys, 0};
}

std::optional<Path> find_path(const Graph& graph, const std::string& from, const std::string& to) {
    require(graph, from);
    require(graph, to);
    Path path;
    if (from == to) {
        path.vertices = {from};
        return path;
    }
    // Dijkstra: an NVLink hop costs 1, any other hop 1000, so data stays on
    // NVLink where it can and otherwise takes the fewest hops.
    const auto& edges = graph.edges();
    std::map<std::string, std::vector<std::size_t>> adjacent;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        adjacent[edges[i].a].push_back(i);
        adjacent[edges[i].b].push_back(i);
    }
    using Item = std::tuple<long, std::string>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    std::map<std::string, long> cost{{from, 0}};
    std::map<std::string, std::size_t> via;  // vertex -> edge it was reached by
    queue.emplace(0, from);
    while (!queue.empty()) {
        auto [c, v] = queue.top();
        queue.pop();
        if (c != cost[v]) continue;
        if (v == to) break;
        // A PCI function passes data between its link and the disk or NIC on it.
        const bool entered_by_attach = via.count(v) && edges[via[v]].kind == EdgeKind::Attach;
        const bool endpoint_only = v != from && !relays(graph.find(v)->kind);
        // An NVSwitch forwards NVLink to NVLink only: its PCIe function is a
        // management port, not a way between the host and the GPUs.
        const bool nvlink_only = v != from && is_nvswitch(graph.find(v)->kind);
        if (nvlink_only && edges[via[v]].kind != EdgeKind::NvLink) continue;
        for (std::size_t i : adjacent[v]) {
            const Edge& e = edges[i];
            if (endpoint_only && !entered_by_attach && !(e.kind == EdgeKind::Attach && e.a == v)) continue;
            if (nvlink_only && e.kind != EdgeKind::NvLink) continue;
            const std::string next = e.a == v ? e.b : e.a;
            const long nc = c + (e.kind == EdgeKind::NvLink || e.kind == EdgeKind::Xgmi ? 1 : 1000);
            auto it = cost.find(next);
            if (it == cost.end() || nc < it->second) {
                cost[next] = nc;
                via[next] = i;
                queue.emplace(nc, next);
            }
        }
    }
    if (!via.count(to)) return std::nullopt;
    for (std::string v = to; v != from;) {
        const Edge& e = edges[via[v]];
        path.vertices.push_back(v);
        path.edges.push_back(via[v]);
        v = e.a == v ? e.b : e.a;
    }
    path.vertices.push_back(from);
    std::reverse(path.vertices.begin(), path.vertices.end());
    std::reverse(path.edges.begin(), path.edges.end());
    double bottleneck = std::numeric_limits<double>::infinity();
    for (std::size_t i : path.edges) {
        const Edge& e = edges[i];
        if (e.kind == EdgeKind::Smp) path.crosses_smp = true;
        if (!has_own_rate(graph, e)) continue;
        if (e.gbps_per_direction > 0) bottleneck = std::min(bottleneck, e.gbps_per_direction);
        else if (!path.unknown_edge) path.unknown_edge = i;
    }
    path.bottleneck_gbps = std::isinf(bottleneck) || path.unknown_edge ? 0.0 : bottleneck;
    // Two GPUs over NVSwitches use all their bonded links at once, not the one route drawn.
    if (graph.find(from)->kind == VertexKind::Gpu && graph.find(to)->kind == VertexKind::Gpu) {
        const NvLinkReach reach = nvlink_between(graph, from, to);
        const bool all_nvlink = std::all_of(path.edges.begin(), path.edges.end(),
                                            [&](std::size_t i) { return edges[i].kind == EdgeKind::NvLink; });
        if (reach.links > 0 && all_nvlink) {
            path.nvlinks = reach.links;
            path.bottleneck_gbps = reach.gbps;
            path.unknown_edge.reset();
            if (reach.gbps <= 0) path.unknown_edge = path.edges.front();
        }
    }
    return path;
}

}  // namespace hwcomm
