#pragma once
// Kernels that only read or only write a buffer another processor owns
// (mapped host memory, a peer GPU's memory, managed pages resident elsewhere),
// so one direction of a link is measured without a second buffer: the read
// kernel checks every word against the pattern as it goes (ALU only, no
// extra memory traffic), the write kernel generates the pattern it stores.
// Plain C++ header; touch_kernels.cu launches.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

// Blocks a touch kernel of `bytes` uses: one result slot per block.
int touch_grid(std::size_t bytes, int sm_count);
inline constexpr unsigned long long kSlotUntouched = ~0ull;

// Reads data[0, bytes) with 16-byte loads (4 in flight per thread) and writes
// into slots[block] the number of words (8 bytes; tail bytes one each) that
// differ from the pattern of `seed`. `slots` holds touch_grid(bytes) entries;
// every launch overwrites each exactly once, so a batch of launches leaves the
// same values as one.
void launch_read_check(cudaStream_t stream, const std::byte* data, std::size_t bytes, std::uint64_t seed,
                       unsigned long long* slots, int sm_count);

// Writes the pattern of `seed` into data[0, bytes) with 16-byte stores.
void launch_write_pattern(cudaStream_t stream, std::byte* data, std::size_t bytes, std::uint64_t seed, int sm_count);

}  // namespace hwcomm::cuda
