#include "methods/cuda/lanes/host_lane.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/lanes/host_lane_kernel.hpp"

namespace hwcomm::cuda {

namespace {

template <class T>
T* device_view_of(void* host) {
    void* dev = nullptr;
    HWCOMM_CUDA_CHECK(cudaHostGetDevicePointer(&dev, host, 0));
    return static_cast<T*>(dev);
}

}  // namespace

HostLane::HostLane(const HwlocTopology& topo, std::vector<CoreSlot> slots, int device, std::byte* dst,
                   const std::byte* src)
    : team_(std::make_unique<HostCopyTeam>(topo, std::move(slots))), device_(device), dst_(dst), src_(src) {
    void* p = nullptr;
    HWCOMM_CUDA_CHECK(cudaHostAlloc(&p, 2 * sizeof(unsigned long long), cudaHostAllocPortable | cudaHostAllocMapped));
    counter_ = static_cast<volatile unsigned long long*>(p);
    counter_[0] = 0;
    timed_out_ = reinterpret_cast<volatile int*>(static_cast<unsigned long long*>(p) + 1);
    *timed_out_ = 0;
    try {
        counter_device_ = device_view_of<unsigned long long>(p);
        timed_out_device_ = reinterpret_cast<int*>(counter_device_ + 1);
    } catch (...) {
        HWCOMM_CUDA_WARN(cudaFreeHost(p));
        throw;
    }
    team_->set_on_done([this](std::size_t reps) noexcept { finished(reps); });
}

HostLane::~HostLane() {
    // Wait kernels still polling read the counter and pending host functions
    // use the team: release the kernels and let the lane's GPU drain first.
    counter_[0] = ~0ull;
    {
        int previous = -1;
        HWCOMM_CUDA_WARN(cudaGetDevice(&previous));
        HWCOMM_CUDA_WARN(cudaSetDevice(device_));
        HWCOMM_CUDA_WARN(cudaDeviceSynchronize());
        if (previous >= 0) HWCOMM_CUDA_WARN(cudaSetDevice(previous));
    }
    team_.reset();  // joins the threads: nothing writes the counter after this
    HWCOMM_CUDA_WARN(cudaFreeHost(const_cast<unsigned long long*>(counter_)));
}

EnqueueCopy HostLane::enqueue() {
    return [this](std::size_t bytes, cudaStream_t stream) {
        bytes_ = bytes;
        const std::uint64_t target = queued_.fetch_add(1) + 1;
        HWCOMM_CUDA_CHECK(cudaLaunchHostFunc(stream, &HostLane::on_stream, this));
        launch_wait_counter(stream, counter_device_, target, timed_out_device_, kTimeoutNs);
    };
}

// Runs on the driver's callback thread once the stream reaches it: hands every
// copy queued so far to the team (the first host function of a sample arms
// the whole batch; the later ones find nothing left).
void HostLane::on_stream(void* self) noexcept {
    auto* lane = static_cast<HostLane*>(self);
    const std::uint64_t queued = lane->queued_.load();
    const std::uint64_t armed = lane->armed_.load();
    if (armed >= queued) return;
    if (lane->team_->try_arm(lane->dst_, lane->src_, lane->bytes_, queued - armed, &lane->open_, 0))
        lane->armed_.store(queued);
}

void HostLane::finished(std::size_t reps) noexcept {
    completed_ += reps;
    last_reps_.store(reps);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    counter_[0] = completed_;
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool HostLane::take_timed_out() noexcept {
    const bool out = *timed_out_ != 0;
    *timed_out_ = 0;
    return out;
}

}  // namespace hwcomm::cuda
