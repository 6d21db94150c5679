#pragma once
// Copies by the Hopper bulk-copy unit (TMA, `cp.async.bulk` through libcu++'s
// cuda::ptx): tiles move global -> shared -> global without passing through
// any thread's registers; one thread per block only issues them. Plain C++
// header; tma_kernels.cu launches. Built for every architecture the project
// targets: below sm_90 the kernels are empty and the launchers refuse first.
#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

// "" when GPU `ordinal` has the bulk-copy unit (compute capability 9.0 or
// newer), else why not ("gpu 0 is sm_80: ...").
std::string why_no_tma(int ordinal);
// The same from a compute capability the graph states (major 0: unknown, "").
std::string why_no_tma_cc(int cc_major, int cc_minor);

// Bytes per bulk copy (one tile) and tiles in flight per block.
inline constexpr std::size_t kTmaTileBytes = 16 * 1024;
inline constexpr int kTmaStages = 2;

// dst[0, bytes) = src[0, bytes) by bulk copies of up to kTmaTileBytes, each
// staged through the block's shared memory; the last bytes % 16 by one thread.
// Both pointers 16-byte aligned (cudaMalloc'd, host pages, peer pointers);
// either may be a peer GPU's or a mapped host pointer. Throws
// MeasurementError when the GPU of the current device has no bulk-copy unit.
void launch_tma_copy(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes, int sm_count);

}  // namespace hwcomm::cuda
