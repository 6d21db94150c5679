#pragma once
// Lanes of the pattern-C methods on one route (host to GPU, GPU to host, GPU
// to GPU), copy-engine copies or kernels: `pairs` source/destination buffer pairs
// (pinned host memory on the NUMA node, device memory), and a lane group that
// exposes what these methods need (lanes added from outside, background load,
// at most one copy per sample).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/lanes/lane_group.hpp"
#include "methods/under_load.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm::cuda {

// "" when the method can copy src -> dst on the copy engines, else why not.
std::string why_not_route(const Graph& graph, const Vertex& src, const Vertex& dst);

// The cap of `per_end` buffers at each end of the route (device memory on a
// GPU end, pinned host memory on a NUMA end), as every CUDA method plans it.
SizeCap plan_route_buffers(const MethodOptions& options, std::size_t asked, const Vertex& src, const Vertex& dst,
                           unsigned per_end);
// The CUDA base context of a route record: its GPU ends.
nlohmann::json route_context(const Graph& graph, const Vertex& src, const Vertex& dst, const SizeCap& cap,
                             const MethodOptions& options);

// What the pattern-C methods share: any copy-engine route between a NUMA
// node and a GPU or two GPUs, one parameter set (the axes carry the pattern).
class RouteCharacterizer : public Characterizer {
public:
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        const std::string why = why_not_route(graph, src, dst);
        return why.empty() ? Applicability::yes() : Applicability::no(why);
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions&) const override {
        return {{}};
    }
};

class RouteBuffers {
public:
    // Throws MeasurementError when allocation or peer access fails.
    RouteBuffers(const Vertex& src, const Vertex& dst, std::size_t bytes, unsigned pairs);
    // A lane that copies pair `first`, `first + 1`, ... `first + copies - 1` in turn on one stream
    // (the pattern fill and check cover pair `first`), by the copy engines or a kernel (executor.hpp).
    CudaLaneDef lane(unsigned first, unsigned copies, const std::string& label, const std::string& method,
                     Executor executor = Executor::CopyEngine) const;
    LoadRoute route() const { return {src_, dst_, direction_, "route"}; }
    nlohmann::json describe() const;

private:
    const Vertex* src_;
    const Vertex* dst_;
    LoadDirection direction_;
    int device_ = -1;  // the GPU whose stream queues the copies
    int src_gpu_ = -1, dst_gpu_ = -1;
    HwlocTopology topo_;  // names the host buffers' nodes (they live on the pool's own topology)
    std::unique_ptr<PeerSetup> peer_;
    std::vector<std::unique_ptr<HostBuffer>> host_;
    std::vector<std::unique_ptr<DeviceBuffer>> from_, to_;
};

class RouteLaneGroup final : public CudaLaneGroup {
public:
    RouteLaneGroup(TimingMode mode, std::size_t max_bytes) : CudaLaneGroup(mode, max_bytes) {}
    using CudaLaneGroup::add_lane;
    using CudaLaneGroup::set_background;
    using CudaLaneGroup::set_max_repetitions;
    nlohmann::json& context_ref() { return context_; }
};

}  // namespace hwcomm::cuda
