#pragma once
// Who moves a lane's bytes. Every lane of a lane group is a stream on one GPU;
// what the stream queues for one copy depends on the executor:
//   ce   the copy engines (cudaMemcpyAsync)
//   sm   a copy kernel: GPU threads load and store 16 bytes at a time
//   tma  bulk copies by the Hopper TMA unit (sm_90 and newer), staged through
//        shared memory (common/tma_kernels.hpp)
// Source and destination are pointers the lane's GPU can use: its own memory,
// a peer GPU's with peer access on, a mapped host view. A CPU executor (host
// threads copying between host buffers) is not a stream: it would join a lane
// group as its own kind of lane, released by the same gate flag the blocking
// kernels poll and timed on the host clock.
#include <cstddef>
#include <functional>
#include <string>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

enum class Executor { CopyEngine, Sm, Tma };

// Queues one copy of `bytes` on `stream` (whose device is current).
using EnqueueCopy = std::function<void(std::size_t bytes, cudaStream_t stream)>;

// "ce" | "sm" | "tma"; throws UsageError otherwise.
Executor executor_from_string(const std::string& text);
const char* to_string(Executor executor);
// How the record's context says it: "copy engines: ...".
std::string describe(Executor executor);

// One copy of `bytes` from `src` to `dst` by `executor`, queued on the stream
// it is given (whose GPU is current and has `sm_count` SMs).
EnqueueCopy executor_copy(Executor executor, std::byte* dst, const std::byte* src, int sm_count);

}  // namespace hwcomm::cuda
