#pragma once
// Host-side launchers of the CUDA kernels (kernels.cu). Plain C++: callers
// need only the runtime header. Every launcher checks the launch and throws
// MeasurementError on failure; it does not synchronize.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

// Spins until *flag != 0 (host-mapped memory) or `timeout_ns` passed; on a
// timeout it sets *timed_out = 1. Holds `stream` while copies are queued.
void launch_blocking_kernel(cudaStream_t stream, const volatile int* flag, volatile int* timed_out,
                            std::uint64_t timeout_ns);

// dst[0..bytes) = src[0..bytes) by GPU threads: 16-byte vector loads and
// stores when both pointers are 16-byte aligned, a byte loop for the tail.
// Either pointer may be a peer GPU's or a mapped host pointer.
void launch_copy_kernel(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes, int sm_count);

// dst[0..bytes) = src[0..bytes) by one block of 256 threads per
// kTiledCopyTileBytes tile (thousands of short blocks): the background load
// of copy kernels, whose SM slots free up tile by tile for a kernel of higher
// stream priority. `bytes` and both pointers multiples of 16; throws otherwise.
inline constexpr std::size_t kTiledCopyTileBytes = 16 * 1024;
void launch_tiled_copy_kernel(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes);

// Fills with the verification pattern (pattern.hpp), inverted when asked.
void launch_fill_pattern(cudaStream_t stream, std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert,
                         int sm_count);

// Counts bytes differing from the pattern: result[0] += count,
// result[1] = min(result[1], first mismatching byte index). `result` is
// device-accessible memory the caller zeroed (result[1] set to ~0).
void launch_count_mismatches(cudaStream_t stream, const std::byte* data, std::size_t bytes, std::uint64_t seed,
                             unsigned long long* result, int sm_count);

}  // namespace hwcomm::cuda
