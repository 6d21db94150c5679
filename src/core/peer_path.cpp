#include "core/peer_path.hpp"

#include <set>

#include "core/paths.hpp"

namespace hwcomm {

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

int cuda_ordinal_of(const Vertex& v) { return v.kind == VertexKind::Gpu && v.gpu ? v.gpu->cuda_ordinal : -1; }

}  // namespace

PeerPath peer_path_in_graph(const Graph& graph, const Vertex& a, const Vertex& b) {
    if (a.id == b.id) return {false, "same GPU"};
    const std::string route = topology_peer_route(graph, a, b);
    // Discovery records what CUDA said (cudaDeviceCanAccessPeer, by ordinal): it overrides the topology.
    const auto said = a.attrs.find("peer_access_to_cuda" + std::to_string(cuda_ordinal_of(b)));
    if (said != a.attrs.end() && said->second == "no")
        return {false, "CUDA reports no peer access from " + a.id + " to " + b.id};
    if (said != a.attrs.end() && said->second == "yes")
        return {true, route.empty() ? "CUDA reports peer access" : route};
    if (!route.empty()) return {true, route};
    return {false, "no NVLink path and no common PCIe root between " + a.id + " and " + b.id};
}

}  // namespace hwcomm
