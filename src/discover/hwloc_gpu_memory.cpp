// GPU memory exposed as a NUMA node (coherent over NVLink on an IBM AC922,
// over NVLink-C2C on Grace Hopper): hwloc gives such nodes the subtype
// GPUMemory and the GPU's PCIBusID. They are memory without CPUs of their own,
// not I/O locality, and they are the GPU's "GPU NUMA ID" in nvidia-smi's matrix.
#include <algorithm>
#include <set>
#include <string>

#include "discover/hwloc_source.hpp"

namespace hwcomm {

void mark_gpu_memory(hwloc_obj_t node, Vertex& v) {
    const char* bus = hwloc_obj_get_info_by_name(node, "PCIBusID");
    v.name = std::string("GPU memory") + (bus ? std::string(" of ") + bus : "");
    v.attrs["memory_kind"] = "gpu";
    if (bus) v.attrs["gpu_pci"] = bus;
    if (v.numa) {
        v.attrs["near_cpus"] = v.numa->cpuset;
        v.numa->cpuset.clear();
        v.numa->pus.clear();
        v.numa->cores = 0;
    }
}

void link_gpu_memory(Graph& graph) {
    std::set<int> gpu_memory;
    for (const Vertex* n : graph.of_kind(VertexKind::NumaNode))
        if (n->attrs.count("memory_kind")) gpu_memory.insert(n->os_index);
    if (gpu_memory.empty()) return;
    // hwloc's nodesets include these nodes; I/O locality and GPU affinity do not.
    std::erase_if(graph.mutable_edges(), [&](const Edge& e) {
        return e.kind == EdgeKind::Membership && graph.find(e.b)->kind == VertexKind::HostBridge &&
               graph.find(e.a)->attrs.count("memory_kind");
    });
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        if (v->gpu) std::erase_if(graph.find(v->id)->gpu->numa_affinity, [&](int n) { return gpu_memory.count(n) > 0; });
    for (const Vertex* n : graph.of_kind(VertexKind::NumaNode)) {
        auto bus = n->attrs.find("gpu_pci");
        const auto pci = bus == n->attrs.end() ? std::nullopt : PciAddress::parse(bus->second);
        const Vertex* gpu = pci ? graph.find_by_pci(*pci) : nullptr;
        if (gpu && gpu->kind == VertexKind::Gpu) graph.find(gpu->id)->attrs["gpu_numa_id"] = std::to_string(n->os_index);
    }
}

}  // namespace hwcomm
