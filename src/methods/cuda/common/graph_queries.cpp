#include "methods/cuda/common/graph_queries.hpp"

#include <algorithm>

#include "core/error.hpp"

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
