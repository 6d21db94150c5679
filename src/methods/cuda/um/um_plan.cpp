#include "methods/cuda/um/um_plan.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/managed_memory.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "platform/host_info.hpp"

namespace hwcomm::cuda {

Applicability um_pair_applicable(const Vertex& src, const Vertex& dst) {
    const bool src_host = src.kind == VertexKind::NumaNode;
    const bool dst_host = dst.kind == VertexKind::NumaNode;
    if (src_host && dst_host) return Applicability::no("host to host: no GPU for managed pages to visit");
    for (const Vertex* v : {&src, &dst}) {
        const std::string why = v->kind == VertexKind::NumaNode ? why_not_host_node(*v) : why_not_cuda_gpu(*v);
        if (!why.empty()) return Applicability::no(why);
    }
    if (src.id == dst.id) return Applicability::no("same GPU: the pages would not move");
    return Applicability::yes();
}

std::vector<ParamSet> um_parameter_sets(const Vertex& src, const Vertex& dst) {
    if (src.kind == VertexKind::NumaNode) return {{{"numa", std::to_string(src.os_index)}}};
    if (dst.kind == VertexKind::NumaNode) return {{{"numa", std::to_string(dst.os_index)}}};
    return {{}};
}

ManagedCap plan_managed(std::size_t asked, const std::vector<int>& ordinals) {
    std::vector<ManagedGpuFree> gpus;
    for (int o : ordinals) {
        if (const std::string why = why_no_managed_support(o); !why.empty())
            throw MeasurementError("not applicable: " + why);
        gpus.push_back({o, device_memory(o).free_bytes});
    }
    const ManagedCap cap = cap_managed_bytes(asked, gpus, available_memory_bytes());
    if (cap.max_bytes == 0) throw MeasurementError("no room for managed memory (limited by " + cap.limited_by + ")");
    return cap;
}

std::vector<int> um_gpu_ordinals(const Vertex& src, const Vertex& dst) {
    std::vector<int> out;
    for (const Vertex* v : {&src, &dst})
        if (v->kind == VertexKind::Gpu) out.push_back(cuda_ordinal(*v));
    return out;
}

nlohmann::json um_context(const Graph& graph, const Vertex& src, const Vertex& dst, const ManagedCap& cap,
                          const MethodOptions& options, int filler, const std::string& home) {
    std::vector<const Vertex*> gpus;
    for (const Vertex* v : {&src, &dst})
        if (v->kind == VertexKind::Gpu) gpus.push_back(v);
    const SizeCap as_buffers{cap.max_bytes, 0, cap.max_bytes, cap.limited_by};
    nlohmann::json ctx = base_context(graph, gpus, as_buffers, options);
    ctx["managed"] = managed_context(um_gpu_ordinals(src, dst));
    ctx["managed"]["buffer_bytes"] = cap.max_bytes;
    ctx["managed"]["cap"] = "at most half the free memory of every GPU involved and half the host's available "
                            "memory; limited by " + cap.limited_by;
    ctx["reset"] = "pages prefetched to gpu" + std::to_string(filler) +
                   ", a fresh pattern written there by a kernel, then prefetched to " + home + " and synchronized";
    return ctx;
}

SizePolicy um_size_policy() {
    SizePolicy p;
    p.alignment = 4096;
    p.min_bytes = 4096;
    return p;
}

}  // namespace hwcomm::cuda
