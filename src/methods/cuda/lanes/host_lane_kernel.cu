#include "methods/cuda/lanes/host_lane_kernel.hpp"

#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda {

namespace {

__device__ __forceinline__ unsigned long long timer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void wait_counter_kernel(const volatile unsigned long long* counter, unsigned long long target,
                                    volatile int* timed_out, unsigned long long timeout_ns) {
    const unsigned long long start = timer_ns();
    while (*counter < target) {
        if (timer_ns() - start > timeout_ns) {
            *timed_out = 1;
            __threadfence_system();
            return;
        }
        __nanosleep(256);  // as the blocking kernel: poll host memory without flooding PCIe
    }
}

}  // namespace

void launch_wait_counter(cudaStream_t stream, const volatile unsigned long long* counter, unsigned long long target,
                         volatile int* timed_out, std::uint64_t timeout_ns) {
    wait_counter_kernel<<<1, 1, 0, stream>>>(counter, target, timed_out, timeout_ns);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
