#include "core/graph.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace hwcomm {

namespace {
constexpr std::array<std::pair<VertexKind, const char*>, 10> kVertexNames{{
    {VertexKind::Package, "package"},
    {VertexKind::NumaNode, "numa"},
    {VertexKind::HostBridge, "host-bridge"},
    {VertexKind::PciBridge, "pci-bridge"},
    {VertexKind::PciDevice, "pci-device"},
    {VertexKind::Gpu, "gpu"},
    {VertexKind::NvSwitch, "nvswitch"},
    {VertexKind::NvSwitchFabric, "nvswitch-fabric"},
    {VertexKind::BlockDevice, "block-device"},
    {VertexKind::NetworkInterface, "network-interface"},
}};
constexpr std::array<std::pair<EdgeKind, const char*>, 6> kEdgeNames{{
    {EdgeKind::Smp, "smp"},
    {EdgeKind::Membership, "membership"},
    {EdgeKind::Pcie, "pcie"},
    {EdgeKind::NvLink, "nvlink"},
    {EdgeKind::Attach, "attach"},
    {EdgeKind::Xgmi, "xgmi"},
}};
}  // namespace

const char* to_string(VertexKind kind) {
    for (const auto& [k, n] : kVertexNames)
        if (k == kind) return n;
    return "unknown";
}

const char* to_string(EdgeKind kind) {
    for (const auto& [k, n] : kEdgeNames)
        if (k == kind) return n;
    return "unknown";
}

std::optional<VertexKind> vertex_kind_from_string(const std::string& text) {
    for (const auto& [k, n] : kVertexNames)
        if (text == n) return k;
    return std::nullopt;
}

std::optional<EdgeKind> edge_kind_from_string(const std::string& text) {
    for (const auto& [k, n] : kEdgeNames)
        if (text == n) return k;
    return std::nullopt;
}

Vertex& Graph::add_vertex(Vertex v) {
    if (v.id.empty()) throw std::invalid_argument("vertex without id");
    if (find(v.id)) throw std::invalid_argument("duplicate vertex id " + v.id);
    vertices_.push_back(std::move(v));
    return vertices_.back();
}

Edge& Graph::add_edge(Edge e) {
    if (!find(e.a) || !find(e.b))
        throw std::invalid_argument("edge " + e.a + " -- " + e.b + " names an unknown vertex");
    edges_.push_back(std::move(e));
    return edges_.back();
}

const Vertex* Graph::find(const std::string& id) const {
    auto it = std::find_if(vertices_.begin(), vertices_.end(), [&](const Vertex& v) { return v.id == id; });
    return it == vertices_.end() ? nullptr : &*it;
}

Vertex* Graph::find(const std::string& id) {
    return const_cast<Vertex*>(std::as_const(*this).find(id));
}

const Vertex* Graph::find_by_pci(const PciAddress& address) const {
    // Prefer the most specific vertex (a GPU over the plain PCI function it sits on).
    const Vertex* found = nullptr;
    for (const auto& v : vertices_) {
        if (!v.pci || !v.pci->same_device(address)) continue;
        if (v.pci->function == address.function || !found) {
            if (!found || v.kind == VertexKind::Gpu || v.kind == VertexKind::NvSwitch) found = &v;
        }
    }
    return found;
}

std::vector<const Vertex*> Graph::of_kind(VertexKind kind) const {
    std::vector<const Vertex*> out;
    for (const auto& v : vertices_)
        if (v.kind == kind) out.push_back(&v);
    return out;
}

std::vector<const Edge*> Graph::edges_of(const std::string& id) const {
    std::vector<const Edge*> out;
    for (const auto& e : edges_)
        if (e.a == id || e.b == id) out.push_back(&e);
    return out;
}

const Edge* Graph::edge_between(const std::string& a, const std::string& b, std::optional<EdgeKind> kind) const {
    for (const auto& e : edges_) {
        if (kind && e.kind != *kind) continue;
        if ((e.a == a && e.b == b) || (e.a == b && e.b == a)) return &e;
    }
    return nullptr;
}

void Graph::remove_vertex(const std::string& id) {
    std::erase_if(edges_, [&](const Edge& e) { return e.a == id || e.b == id; });
    std::erase_if(vertices_, [&](const Vertex& v) { return v.id == id; });
}

}  // namespace hwcomm
