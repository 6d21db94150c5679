#include "methods/cuda/common/blocking_gate.hpp"

#include <atomic>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/kernels.hpp"

namespace hwcomm::cuda {

BlockingGate::BlockingGate() {
    void* p = nullptr;
    HWCOMM_CUDA_CHECK(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped));
    host_ = static_cast<volatile int*>(p);
    host_[0] = 1;  // released: nothing is held
    host_[1] = 0;
    void* dev = nullptr;
    const cudaError_t err = cudaHostGetDevicePointer(&dev, p, 0);
    if (err != cudaSuccess) {
        HWCOMM_CUDA_WARN(cudaFreeHost(p));
        host_ = nullptr;
        HWCOMM_CUDA_CHECK(err);
    }
    device_view_ = static_cast<int*>(dev);
}

BlockingGate::~BlockingGate() {
    if (!host_) return;
    release();
    // Kernels still spinning read this memory: let them finish before freeing.
    HWCOMM_CUDA_WARN(cudaDeviceSynchronize());
    HWCOMM_CUDA_WARN(cudaFreeHost(const_cast<int*>(host_)));
}

void BlockingGate::hold(const Stream& stream) {
    if (!armed_) {
        host_[1] = 0;
        host_[0] = 0;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        armed_ = true;
    }
    ScopedDevice on(stream.device());
    launch_blocking_kernel(stream.get(), device_view_, device_view_ + 1, kTimeoutNs);
}

void BlockingGate::release() noexcept {
    if (!host_ || !armed_) return;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    host_[0] = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    armed_ = false;
}

bool BlockingGate::timed_out() const noexcept { return host_ && host_[1] != 0; }

}  // namespace hwcomm::cuda
