#pragma once
// What the um-* methods share in planning and preparing: which pairs they
// take (a host NUMA node with memory and a GPU, either way; two distinct
// GPUs), their parameter sets, and the managed buffer's size under the cap.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/um/managed_caps.hpp"

namespace hwcomm::cuda {

// From the graph alone: numaN -> gpu, gpu -> numaN, gpuA -> gpuB (A != B).
Applicability um_pair_applicable(const Vertex& src, const Vertex& dst);
// {"numa": N} when one end is a host node, else one empty set.
std::vector<ParamSet> um_parameter_sets(const Vertex& src, const Vertex& dst);

// Prepare time: every GPU in `ordinals` supports managed memory with
// concurrent access (else MeasurementError "not applicable: ..."), and the
// buffer fits half the free memory of each and half the host's available
// memory (MeasurementError when nothing fits).
ManagedCap plan_managed(std::size_t asked, const std::vector<int>& ordinals);

// CUDA ordinals of the GPU ends, source first.
std::vector<int> um_gpu_ordinals(const Vertex& src, const Vertex& dst);

// The context every um-* record starts with: the CUDA base context of its GPU
// ends, the managed-memory attributes and cap, and how reset() places the pages.
nlohmann::json um_context(const Graph& graph, const Vertex& src, const Vertex& dst, const ManagedCap& cap,
                          const MethodOptions& options, int filler, const std::string& home);

// Whole pages only: a transfer of less still moves a page.
SizePolicy um_size_policy();

// What um-prefetch and um-demand share as methods: their pairs, parameter
// sets, whole-page sizes, and a Session(graph, src, dst, cap, options) over a
// managed buffer capped by plan_managed.
template <typename Session>
class UmCharacterizer : public Characterizer {
public:
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu, VertexKind::NumaNode}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        return um_pair_applicable(src, dst);
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        return um_parameter_sets(src, dst);
    }
    SizePolicy size_policy() const override { return um_size_policy(); }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const ManagedCap cap = plan_managed(max_bytes, um_gpu_ordinals(src, dst));
            return std::make_unique<Session>(graph, src, dst, cap, options);
        });
    }
};

}  // namespace hwcomm::cuda
