#include "methods/cuda/lanes/copy_lanes.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"

namespace hwcomm::cuda {

ConcurrentCopySession::ConcurrentCopySession(TimingMode mode, const SizeCap& cap, Executor executor,
                                             const std::string& method)
    : CudaLaneGroup(mode, cap.max_bytes), cap_(cap), executor_(executor), method_(method) {
    context_["copy"] = describe(executor);
    context_["lane_buffers"] = {{"device_buffer_bytes", cap.buffer_bytes}, {"host_buffer_bytes", cap.host_bytes}};
}

LaneSpec ConcurrentCopySession::spec(const Vertex& src, const Vertex& dst) const {
    LaneSpec s;
    s.label = src.id + "->" + dst.id;
    s.method = method_;
    s.src = src.id;
    s.dst = dst.id;
    s.params = {{"mode", to_string(executor_)}};
    return s;
}

DeviceBuffer& ConcurrentCopySession::device_buffer(int ordinal) {
    device_buffers_.push_back(std::make_unique<DeviceBuffer>(ordinal, cap_.buffer_bytes));
    return *device_buffers_.back();
}

HostBuffer& ConcurrentCopySession::host_buffer(int numa) {
    host_buffers_.push_back(make_host_buffer(HostMemKind::Pinned, topo_, numa, cap_.host_bytes));
    if (executor_ != Executor::CopyEngine && !host_buffers_.back()->device_view())
        throw MeasurementError("the pinned host buffer has no device mapping for a copy kernel");
    context_["host_buffers"].push_back(host_buffers_.back()->describe());
    return *host_buffers_.back();
}

void ConcurrentCopySession::enable_peer(int device, int peer) {
    peers_.push_back(std::make_unique<PeerSetup>(device, peer, true));
    context_["peer"].push_back(peers_.back()->describe());
}

void ConcurrentCopySession::add_host_to_gpu(const Vertex& numa, const Vertex& gpu) {
    const int g = cuda_ordinal(gpu);
    HostBuffer& host = host_buffer(numa.os_index);
    DeviceBuffer& dev = device_buffer(g);
    EnqueueCopy enqueue;
    if (executor_ == Executor::CopyEngine)
        enqueue = [&host, &dev](std::size_t bytes, cudaStream_t s) {
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dev.data(), host.data(), bytes, cudaMemcpyHostToDevice, s));
        };
    else
        enqueue = executor_copy(executor_, dev.data(), host.device_view(), sm_count_of(g));
    add_lane({spec(numa, gpu), g, BufferRef{host.data(), host.device_view(), g, false},
              BufferRef{nullptr, dev.data(), g, false}, std::move(enqueue)});
}

void ConcurrentCopySession::add_gpu_to_host(const Vertex& gpu, const Vertex& numa) {
    const int g = cuda_ordinal(gpu);
    DeviceBuffer& dev = device_buffer(g);
    HostBuffer& host = host_buffer(numa.os_index);
    EnqueueCopy enqueue;
    if (executor_ == Executor::CopyEngine)
        enqueue = [&host, &dev](std::size_t bytes, cudaStream_t s) {
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev.data(), bytes, cudaMemcpyDeviceToHost, s));
        };
    else
        enqueue = executor_copy(executor_, host.device_view(), dev.data(), sm_count_of(g));
    add_lane({spec(gpu, numa), g, BufferRef{nullptr, dev.data(), g, false},
              BufferRef{host.data(), host.device_view(), g, false}, std::move(enqueue)});
}

void ConcurrentCopySession::add_gpu_to_gpu(const Vertex& src, const Vertex& dst, Initiator initiator) {
    const int a = cuda_ordinal(src);
    const int b = cuda_ordinal(dst);
    const int exec = initiator == Initiator::Writer ? a : b;
    enable_peer(a, b);
    DeviceBuffer& from = device_buffer(a);
    DeviceBuffer& to = device_buffer(b);
    EnqueueCopy enqueue;
    if (executor_ == Executor::CopyEngine)
        enqueue = [&from, &to, a, b](std::size_t bytes, cudaStream_t s) {
            HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(to.data(), b, from.data(), a, bytes, s));
        };
    else
        enqueue = executor_copy(executor_, to.data(), from.data(), sm_count_of(exec));
    LaneSpec s = spec(src, dst);
    s.params["initiator"] = initiator == Initiator::Writer ? "src" : "dst";
    add_lane({std::move(s), exec, BufferRef{nullptr, from.data(), a, false}, BufferRef{nullptr, to.data(), b, false},
              std::move(enqueue)});
}

}  // namespace hwcomm::cuda
