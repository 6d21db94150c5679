#include "methods/cuda/zerocopy/zero_copy_session.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/managed_memory.hpp"
#include "methods/cuda/common/pattern.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/common/touch_kernels.hpp"

namespace hwcomm::cuda {

ZeroCopySession::ZeroCopySession(const Graph& graph, const Vertex& numa, const Vertex& gpu, TouchDirection dir,
                                 HostMemKind kind, const SizeCap& cap, const MethodOptions& options)
    : CudaLaneGroup(options.timing, cap.max_bytes),
      dir_(dir),
      exec_(cuda_ordinal(gpu)),
      sm_count_(sm_count_of(exec_)),
      slots_(exec_, sm_count_) {
    topo_ = std::make_unique<HwlocTopology>();
    host_ = make_host_buffer(kind, *topo_, numa.os_index, cap.host_bytes);
    if (!host_->device_view()) throw MeasurementError("the " + std::string(to_string(kind)) +
                                                      " host buffer has no device mapping");
    far_ = BufferRef{host_->data(), host_->device_view(), exec_, false};
    add_touch_lane(graph, gpu, cap, options);
    context_["host_buffer"] = host_->describe();
}

ZeroCopySession::ZeroCopySession(const Graph& graph, const Vertex& far_gpu, const Vertex& exec_gpu,
                                 TouchDirection dir, const SizeCap& cap, const MethodOptions& options)
    : CudaLaneGroup(options.timing, cap.max_bytes),
      dir_(dir),
      exec_(cuda_ordinal(exec_gpu)),
      sm_count_(sm_count_of(exec_)),
      slots_(exec_, sm_count_) {
    const int far = cuda_ordinal(far_gpu);
    peer_.emplace(PeerSetup::one_way(exec_, far));
    far_device_ = std::make_unique<DeviceBuffer>(far, cap.buffer_bytes);
    // Filled and checked by the kernel's own GPU through the peer pointer, as it is touched.
    far_ = BufferRef{nullptr, far_device_->data(), exec_, false};
    add_touch_lane(graph, exec_gpu, cap, options);
    context_["peer"] = peer_->describe();
    context_["gpus"].push_back(gpu_context(graph, far_gpu));
}

void ZeroCopySession::add_touch_lane(const Graph& graph, const Vertex& gpu, const SizeCap& cap,
                                     const MethodOptions& options) {
    CudaLaneDef lane;
    lane.spec.label = dir_ == TouchDirection::Read ? "read" : "write";
    lane.device = exec_;
    lane.src = far_;  // for the record only: reset() and verify() below fill and check
    lane.dst = far_;
    lane.enqueue = [this](std::size_t bytes, cudaStream_t stream) {
        if (dir_ == TouchDirection::Read)
            launch_read_check(stream, far_.device, bytes, seed_, slots_.data(), sm_count_);
        else
            launch_write_pattern(stream, far_.device, bytes, seed_, sm_count_);
    };
    add_lane(std::move(lane));
    context_.update(base_context(graph, {&gpu}, cap, options));
    context_["kernel"] = {
        {"gpu", exec_},
        {"how", dir_ == TouchDirection::Read
                    ? "reads the far memory in place and counts words that differ from the pattern (no stores "
                      "but one count per block)"
                    : "stores the pattern it generates into the far memory (no loads)"},
        {"access", "16-byte vector accesses, 4 loads in flight per thread, byte tail loop"},
        {"grid", "min(4 x SMs, needed) blocks of 512 threads"},
        {"sm_count", sm_count_}};
    // What decides how the kernel reaches host memory (native atomics over
    // the link, host page tables, the same pointer as the CPU's).
    context_["device_attributes"] = managed_attributes(exec_);
    context_["verify"] = dir_ == TouchDirection::Read
                             ? "fresh pattern in the far memory before every sample; the kernel's per-block "
                               "mismatch counts (poisoned before) checked after"
                             : "far memory poisoned with the inverted pattern before every sample, checked by a GPU "
                               "kernel after";
}

void ZeroCopySession::reset(std::size_t bytes, const std::string&) {
    if (bytes > max_bytes())
        throw MeasurementError("size " + std::to_string(bytes) + " exceeds the session's buffers");
    // The lane group's measure() asks for a reset when it saw none of its own:
    // one right after ours would only repeat it.
    if (fresh_ && bytes == reset_bytes_) return;
    seed_ = seed_for_size(bytes, ++fills_);
    patterns_.fill(far_, bytes, seed_, dir_ == TouchDirection::Write);
    if (dir_ == TouchDirection::Read) slots_.poison();
    reset_bytes_ = bytes;
    fresh_ = true;
}

void ZeroCopySession::warmup(std::size_t bytes, const std::string& variant) {
    fresh_ = false;
    CudaLaneGroup::warmup(bytes, variant);
    fresh_ = false;
}

Sample ZeroCopySession::measure(std::size_t bytes, const std::string& variant) {
    if (!fresh_ || bytes != reset_bytes_) {
        fresh_ = false;
        reset(bytes, variant);
    }
    Sample s = CudaLaneGroup::measure(bytes, variant);
    fresh_ = false;
    return s;
}

std::string ZeroCopySession::verify(std::size_t bytes, const std::string&) {
    if (bytes != reset_bytes_) return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    if (dir_ == TouchDirection::Read) return slots_.check(bytes);
    return patterns_.check(far_, bytes, seed_);
}

}  // namespace hwcomm::cuda
