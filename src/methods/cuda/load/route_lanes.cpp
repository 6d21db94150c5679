#include "methods/cuda/load/route_lanes.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"

namespace hwcomm::cuda {

std::string why_not_route(const Graph& graph, const Vertex& src, const Vertex& dst) {
    if (src.kind == VertexKind::NumaNode && dst.kind == VertexKind::Gpu) {
        if (auto why = why_not_host_node(src); !why.empty()) return why;
        return why_not_cuda_gpu(dst);
    }
    if (src.kind == VertexKind::Gpu && dst.kind == VertexKind::NumaNode) {
        if (auto why = why_not_host_node(dst); !why.empty()) return why;
        return why_not_cuda_gpu(src);
    }
    if (src.kind == VertexKind::Gpu && dst.kind == VertexKind::Gpu) {
        if (&src == &dst) return "a GPU to itself is not a route between two endpoints";
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return why;
        if (auto why = why_not_cuda_gpu(dst); !why.empty()) return why;
        const PeerPath p = peer_path_in_graph(graph, src, dst);
        return p.possible ? "" : "no peer path: " + p.via;
    }
    return "routes are NUMA node -> GPU, GPU -> NUMA node or GPU -> GPU";
}

RouteBuffers::RouteBuffers(const Vertex& src, const Vertex& dst, std::size_t bytes, unsigned pairs)
    : src_(&src), dst_(&dst) {
    direction_ = src.kind == VertexKind::NumaNode ? LoadDirection::HostToGpu
                 : dst.kind == VertexKind::NumaNode ? LoadDirection::GpuToHost
                                                    : LoadDirection::GpuToGpu;
    src_gpu_ = cuda_ordinal(src);
    dst_gpu_ = cuda_ordinal(dst);
    device_ = src_gpu_ >= 0 ? src_gpu_ : dst_gpu_;
    if (direction_ == LoadDirection::HostToGpu) device_ = dst_gpu_;
    if (direction_ == LoadDirection::GpuToGpu) peer_ = std::make_unique<PeerSetup>(src_gpu_, dst_gpu_, true);
    for (unsigned i = 0; i < pairs; ++i) {
        if (direction_ == LoadDirection::HostToGpu) {
            host_.push_back(make_host_buffer(HostMemKind::Pinned, topo_, src.os_index, bytes));
            to_.push_back(std::make_unique<DeviceBuffer>(dst_gpu_, bytes));
        } else if (direction_ == LoadDirection::GpuToHost) {
            from_.push_back(std::make_unique<DeviceBuffer>(src_gpu_, bytes));
            host_.push_back(make_host_buffer(HostMemKind::Pinned, topo_, dst.os_index, bytes));
        } else {
            from_.push_back(std::make_unique<DeviceBuffer>(src_gpu_, bytes));
            to_.push_back(std::make_unique<DeviceBuffer>(dst_gpu_, bytes));
        }
    }
}

CudaLaneDef RouteBuffers::lane(unsigned first, unsigned copies, const std::string& label, const std::string& method,
                               Executor executor) const {
    CudaLaneDef def;
    def.spec.label = label;
    def.spec.method = method;
    def.spec.src = src_->id;
    def.spec.dst = dst_->id;
    def.device = device_;
    // A kernel reaches host memory through its mapped view; the copy engines take the host pointer.
    const bool ce = executor == Executor::CopyEngine;
    auto host_ptr = [ce](HostBuffer& h) {
        if (!ce && !h.device_view()) throw MeasurementError("the pinned host buffer has no device mapping");
        return ce ? h.data() : h.device_view();
    };
    std::vector<std::pair<std::byte*, std::byte*>> copy_pairs;  // (to, from)
    for (unsigned k = first; k < first + copies; ++k) {
        if (direction_ == LoadDirection::HostToGpu) copy_pairs.push_back({to_.at(k)->data(), host_ptr(*host_.at(k))});
        else if (direction_ == LoadDirection::GpuToHost) copy_pairs.push_back({host_ptr(*host_.at(k)), from_.at(k)->data()});
        else copy_pairs.push_back({to_.at(k)->data(), from_.at(k)->data()});
    }
    const int g = device_;
    if (direction_ == LoadDirection::HostToGpu) {
        def.src = BufferRef{host_.at(first)->data(), host_.at(first)->device_view(), g, false};
        def.dst = BufferRef{nullptr, to_.at(first)->data(), g, false};
    } else if (direction_ == LoadDirection::GpuToHost) {
        def.src = BufferRef{nullptr, from_.at(first)->data(), g, false};
        def.dst = BufferRef{host_.at(first)->data(), host_.at(first)->device_view(), g, false};
    } else {
        def.src = BufferRef{nullptr, from_.at(first)->data(), src_gpu_, false};
        def.dst = BufferRef{nullptr, to_.at(first)->data(), dst_gpu_, false};
    }
    if (!ce) {
        def.spec.params["mode"] = to_string(executor);
        std::vector<EnqueueCopy> each;
        for (const auto& [to, from] : copy_pairs) each.push_back(executor_copy(executor, to, from, sm_count_of(g)));
        def.enqueue = [each](std::size_t bytes, cudaStream_t s) {
            for (const EnqueueCopy& copy : each) copy(bytes, s);
        };
        return def;
    }
    const LoadDirection dir = direction_;
    const int a = src_gpu_, b = dst_gpu_;
    def.enqueue = [copy_pairs, dir, a, b](std::size_t bytes, cudaStream_t s) {
        for (const auto& [to, from] : copy_pairs) {
            if (dir == LoadDirection::GpuToGpu) HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(to, b, from, a, bytes, s));
            else
                HWCOMM_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes,
                                                  dir == LoadDirection::HostToGpu ? cudaMemcpyHostToDevice
                                                                                  : cudaMemcpyDeviceToHost,
                                                  s));
        }
    };
    return def;
}

nlohmann::json RouteBuffers::describe() const {
    nlohmann::json j{{"pairs", std::max(host_.size(), from_.size())}, {"stream_device", device_}};
    if (!host_.empty()) j["host_buffer"] = host_.front()->describe();
    if (peer_) j["peer"] = peer_->describe();
    return j;
}

SizeCap plan_route_buffers(const MethodOptions& options, std::size_t asked, const Vertex& src, const Vertex& dst,
                           unsigned per_end) {
    std::vector<std::pair<int, unsigned>> device_buffers;
    unsigned host_buffers = 0;
    for (const Vertex* v : {&src, &dst}) {
        if (v->kind == VertexKind::Gpu) device_buffers.push_back({cuda_ordinal(*v), per_end});
        else host_buffers += per_end;
    }
    return plan_buffers(options, asked, device_buffers, host_buffers);
}

nlohmann::json route_context(const Graph& graph, const Vertex& src, const Vertex& dst, const SizeCap& cap,
                             const MethodOptions& options) {
    std::vector<const Vertex*> gpus;
    for (const Vertex* v : {&src, &dst})
        if (v->kind == VertexKind::Gpu) gpus.push_back(v);
    return base_context(graph, gpus, cap, options);
}

}  // namespace hwcomm::cuda
