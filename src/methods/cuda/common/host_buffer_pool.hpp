#pragma once
// Host buffers kept between records (platform/recycling_pool.hpp): a record
// that wants a buffer of the kind and NUMA node of one an earlier record
// released, and its size or up to 4 times less (the session then sees the
// size it asked for; the description says "allocated_bytes"), gets that one,
// already allocated, page-locked and placed, instead
// of paying cudaHostAlloc / cudaHostRegister again (0.1-0.5 s a GiB on the
// GPU machines; the lane sweeps and loaded routes of a 4-GPU run made dozens).
// The buffer's description says "recycled"; its placement is the one checked
// when it was made. At most an eighth of the memory available when the pool
// is first used, and 8 GiB, lies idle. Idle buffers are never freed at exit:
// the process's end releases them, after the CUDA runtime may be gone.
#include <cstddef>
#include <functional>
#include <memory>

#include "methods/cuda/common/host_memory.hpp"

namespace hwcomm::cuda {

// An idle buffer of this kind and node that serves `bytes`, else make(topology) with the
// pool's own topology (buffers may outlive the session that asked, and a
// NUMA-bound buffer frees itself through the topology that made it). Either
// way it returns to the pool when released, unless a CUDA error is pending
// then. A make() that fails for want of memory (DeviceError, a NUMA-bound
// allocation, huge pages short, bad_alloc) is tried once more after the idle
// buffers are freed. A buffer handed on is told so (HostBuffer::on_reuse: a
// pageable one finds its pages' nodes again, the kernel may have moved them).
std::unique_ptr<HostBuffer> pooled_host_buffer(HostMemKind kind, int numa_os_index, std::size_t bytes,
                                               const std::function<std::unique_ptr<HostBuffer>(const HwlocTopology&)>& make);

struct HostPoolStats {
    std::size_t idle_bytes = 0, idle_count = 0, reused = 0, cap_bytes = 0;
};
HostPoolStats host_pool_stats();
// Frees every idle buffer now.
void drain_host_pool();

}  // namespace hwcomm::cuda
