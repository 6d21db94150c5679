#include "discover/gpu_ids.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace hwcomm {

void rename_vertices(Graph& graph, const std::map<std::string, std::string>& renames) {
    for (const auto& [from, to] : renames)
        if (graph.find(to) && !renames.count(to))
            throw std::invalid_argument("renaming " + from + " to existing vertex " + to);
    // Two steps through temporary ids so that gpu0 <-> gpu1 swaps work.
    std::map<std::string, std::string> tmp, final_names;
    int k = 0;
    for (const auto& [from, to] : renames) {
        const std::string t = "\x01rename" + std::to_string(k++);
        tmp[from] = t;
        final_names[t] = to;
    }
    for (const auto* step : {&tmp, &final_names}) {
        for (const auto& [from, to] : *step)
            if (Vertex* v = graph.find(from)) v->id = to;
        for (Edge& e : graph.mutable_edges()) {
            if (auto it = step->find(e.a); it != step->end()) e.a = it->second;
            if (auto it = step->find(e.b); it != step->end()) e.b = it->second;
        }
    }
}

int infer_cuda_ordinals(Graph& graph) {
    std::vector<Vertex*> nvidia;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu)) {
        if (!v->gpu || !v->pci) continue;
        if (v->gpu->cuda_ordinal >= 0) return 0;  // the file has CUDA facts: keep them
        auto vendor = v->attrs.find("gpu_vendor");
        if (vendor != v->attrs.end() && vendor->second == "NVIDIA") nvidia.push_back(graph.find(v->id));
    }
    std::stable_sort(nvidia.begin(), nvidia.end(), [](const Vertex* a, const Vertex* b) { return *a->pci < *b->pci; });
    for (std::size_t k = 0; k < nvidia.size(); ++k) {
        nvidia[k]->gpu->cuda_ordinal = static_cast<int>(k);
        nvidia[k]->attrs["cuda_ordinal_inferred"] = "PCI bus id order";
    }
    if (!nvidia.empty())
        graph.notes.push_back("CUDA ordinals inferred from PCI bus id order (no CUDA facts in the input)");
    return static_cast<int>(nvidia.size());
}

std::string assign_gpu_ids(Graph& graph) {
    std::vector<const Vertex*> gpus = graph.of_kind(VertexKind::Gpu);
    const bool all_cuda = !gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [](const Vertex* v) {
        return v->gpu && v->gpu->cuda_ordinal >= 0;
    });
    const bool all_nvml = !gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [](const Vertex* v) {
        return v->gpu && v->gpu->nvml_index >= 0;
    });
    const std::string order = all_cuda ? "cuda" : all_nvml ? "nvml" : "pci";
    std::stable_sort(gpus.begin(), gpus.end(), [&](const Vertex* a, const Vertex* b) {
        if (all_cuda) return a->gpu->cuda_ordinal < b->gpu->cuda_ordinal;
        if (all_nvml) return a->gpu->nvml_index < b->gpu->nvml_index;
        if (a->pci && b->pci) return *a->pci < *b->pci;
        return a->pci.has_value() && !b->pci.has_value();
    });
    std::map<std::string, std::string> renames;
    for (std::size_t k = 0; k < gpus.size(); ++k) {
        const std::string id = "gpu" + std::to_string(k);
        if (gpus[k]->id != id) renames[gpus[k]->id] = id;
    }
    rename_vertices(graph, renames);
    if (!gpus.empty()) graph.provenance["gpu_id_order"] = order;
    return order;
}

}  // namespace hwcomm
