#pragma once
// The device side of a CPU lane in a lane group (host_lane.hpp): a one-thread
// kernel that holds its stream until a counter in host-mapped memory reaches
// a target, so the lane's stop event follows the CPU threads' last store.
#include <cstdint>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

// Spins until *counter >= target or `timeout_ns` passed (then *timed_out = 1).
void launch_wait_counter(cudaStream_t stream, const volatile unsigned long long* counter, unsigned long long target,
                         volatile int* timed_out, std::uint64_t timeout_ns);

}  // namespace hwcomm::cuda
