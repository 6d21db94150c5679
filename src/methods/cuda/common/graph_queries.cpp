#include "methods/cuda/common/graph_queries.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/paths.hpp"

namespace hwcomm::cuda {

int cuda_ordinal(const Vertex& v) {
    if (v.kind != VertexKind::Gpu || !v.gpu) return -1;
    return v.gpu->cuda_ordinal;
}

std::string why_not_cuda_gpu(const Vertex& v) {
    if (v.kind != VertexKind::Gpu) return v.id + " is not a GPU";
    if (auto vendor = v.attrs.find("gpu_vendor"); vendor != v.attrs.end() && vendor->second != "NVIDIA")
        return v.id + " is an " + vendor->second + " GPU: not measurable: no CUDA";
    if (cuda_ordinal(v) < 0) return v.id + " has no CUDA ordinal (CUDA did not report it)";
    return {};
}

std::vector<const Vertex*> cuda_gpus(const Graph& graph) {
    std::vector<const Vertex*> out;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        if (why_not_cuda_gpu(*v).empty()) out.push_back(v);
    std::sort(out.begin(), out.end(), [](const Vertex* a, const Vertex* b) { return cuda_ordinal(*a) < cuda_ordinal(*b); });
    return out;
}

std::string why_not_host_node(const Vertex& v) {
    if (v.kind != VertexKind::NumaNode) return v.id + " is not a NUMA node";
    if (v.os_index < 0) return v.id + " has no OS index";
    if (v.numa && v.numa->memory_bytes == 0) return v.id + " has no memory";
    return {};
}

std::string pcie_root_of(const Graph& graph, const std::string& id) {
    // Walk PCIe edges upwards (edge.a is the parent); guard against cycles.
    std::string current = id;
    std::set<std::string> seen{current};
    for (;;) {
        std::string parent;
        for (const Edge* e : graph.edges_of(current))
            if (e->kind == EdgeKind::Pcie && e->b == current) parent = e->a;
        if (parent.empty() || !seen.insert(parent).second) break;
        current = parent;
    }
    const Vertex* top = graph.find(current);
    return top && top->kind == VertexKind::HostBridge ? current : std::string{};
}

namespace {

// The link a peer path would take, from the topology alone; "" when none.
std::string topology_peer_route(const Graph& graph, const Vertex& a, const Vertex& b) {
    if (graph.edge_between(a.id, b.id, EdgeKind::NvLink)) return "nvlink";
    // Through NVSwitches, also switches joined only by trunks (a DGX-2's two boards).
    const NvLinkReach reach = nvlink_between(graph, a.id, b.id);
    if (!reach.switches.empty()) return "nvlink via " + reach.switches.front();
    if (reach.through_trunks) return "nvlink via nvswitch fabric";
    const std::string root_a = pcie_root_of(graph, a.id);
    if (!root_a.empty() && root_a == pcie_root_of(graph, b.id)) return "pcie root " + root_a;
    return {};
}

}  // namespace

PeerPath peer_path_in_graph(const Graph& graph, const Vertex& a, const Vertex& b) {
    if (a.id == b.id) return {false, "same GPU"};
    const std::string route = topology_peer_route(graph, a, b);
    // Discovery records what CUDA said (cudaDeviceCanAccessPeer, by ordinal): it overrides the topology.
    const auto said = a.attrs.find("peer_access_to_cuda" + std::to_string(cuda_ordinal(b)));
    if (said != a.attrs.end() && said->second == "no")
        return {false, "CUDA reports no peer access from " + a.id + " to " + b.id};
    if (said != a.attrs.end() && said->second == "yes")
        return {true, route.empty() ? "CUDA reports peer access" : route};
    if (!route.empty()) return {true, route};
    return {false, "no NVLink path and no common PCIe root between " + a.id + " and " + b.id};
}

std::optional<PcieLink> gpu_pcie_link(const Graph& graph, const Vertex& gpu) {
    for (const Edge* e : graph.edges_of(gpu.id))
        if (e->kind == EdgeKind::Pcie && e->b == gpu.id && e->pcie) return e->pcie;
    return std::nullopt;
}

std::vector<ParamSet> peer_parameter_sets(const Graph& graph, const Vertex& a, const Vertex& b) {
    std::vector<ParamSet> sets;
    if (peer_path_in_graph(graph, a, b).possible) sets.push_back({{"peer", "on"}});
    sets.push_back({{"peer", "off"}});
    return sets;
}

std::vector<ParamSet> host_parameter_sets(const Vertex& numa, const std::vector<std::string>& kinds) {
    std::vector<ParamSet> sets;
    for (const auto& kind : kinds) sets.push_back({{"host_mem", kind}, {"numa", std::to_string(numa.os_index)}});
    return sets;
}

std::string param_or_throw(const ParamSet& params, const std::string& key, const std::vector<std::string>& allowed,
                           const std::string& method) {
    const auto it = params.find(key);
    if (it == params.end()) throw UsageError(method + ": parameter '" + key + "' is missing");
    for (const auto& a : allowed)
        if (a == it->second) return a;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
    throw UsageError(method + ": parameter " + key + "=" + it->second + " is not one of " + list);
}

}  // namespace hwcomm::cuda
