#include "methods/cuda/common/touch_kernels.hpp"

#include <algorithm>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/pattern.hpp"

namespace hwcomm::cuda {

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;  // as the copy kernel: a full H100/H200 SM

__device__ __forceinline__ unsigned long long word_of(unsigned lo, unsigned hi) {
    return static_cast<unsigned long long>(lo) | (static_cast<unsigned long long>(hi) << 32);
}

// pattern_word(w, seed) == mix64(w ^ seed_mix) with seed_mix = mix64(seed).
__device__ __forceinline__ unsigned differs(const uint4& v, std::size_t vector_index, unsigned long long seed_mix) {
    const unsigned long long w = 2 * static_cast<unsigned long long>(vector_index);
    return (word_of(v.x, v.y) != mix64(w ^ seed_mix)) + (word_of(v.z, v.w) != mix64((w + 1) ^ seed_mix));
}

__global__ void read_check_kernel(const unsigned char* bytes_ptr, std::size_t vectors, std::size_t bytes,
                                  unsigned long long seed, unsigned long long seed_mix,
                                  unsigned long long* slots) {
    __shared__ unsigned long long block_count;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    const uint4* src = reinterpret_cast<const uint4*>(bytes_ptr);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned long long count = 0;
    std::size_t i = tid;
    // Four independent loads in flight: mapped host and peer loads have
    // microseconds of latency.
    for (; i + 3 * stride < vectors; i += 4 * stride) {
        const uint4 a = src[i];
        const uint4 b = src[i + stride];
        const uint4 c = src[i + 2 * stride];
        const uint4 d = src[i + 3 * stride];
        count += differs(a, i, seed_mix) + differs(b, i + stride, seed_mix) + differs(c, i + 2 * stride, seed_mix) +
                 differs(d, i + 3 * stride, seed_mix);
    }
    for (; i < vectors; i += stride) count += differs(src[i], i, seed_mix);
    for (std::size_t j = vectors * 16 + tid; j < bytes; j += stride) count += bytes_ptr[j] != pattern_byte(j, seed);
    if (count) atomicAdd(&block_count, count);
    __syncthreads();
    if (threadIdx.x == 0) slots[blockIdx.x] = block_count;
}

__global__ void write_pattern_kernel(unsigned char* bytes_ptr, std::size_t vectors, std::size_t bytes,
                                     unsigned long long seed, unsigned long long seed_mix) {
    uint4* dst = reinterpret_cast<uint4*>(bytes_ptr);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (std::size_t i = tid; i < vectors; i += stride) {
        const unsigned long long w = 2 * static_cast<unsigned long long>(i);
        const unsigned long long lo = mix64(w ^ seed_mix);
        const unsigned long long hi = mix64((w + 1) ^ seed_mix);
        dst[i] = make_uint4(static_cast<unsigned>(lo), static_cast<unsigned>(lo >> 32), static_cast<unsigned>(hi),
                            static_cast<unsigned>(hi >> 32));
    }
    for (std::size_t j = vectors * 16 + tid; j < bytes; j += stride) bytes_ptr[j] = pattern_byte(j, seed);
}

std::size_t vectors_of(const void* p, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 ? bytes / 16 : 0;
}

}  // namespace

int touch_grid(std::size_t bytes, int sm_count) {
    const std::size_t items = std::max<std::size_t>(1, (bytes + 15) / 16);
    const std::size_t wanted = (items + kThreads - 1) / kThreads;
    const std::size_t most = static_cast<std::size_t>(std::max(sm_count, 1)) * kBlocksPerSm;
    return static_cast<int>(std::clamp<std::size_t>(wanted, 1, most));
}

void launch_read_check(cudaStream_t stream, const std::byte* data, std::size_t bytes, std::uint64_t seed,
                       unsigned long long* slots, int sm_count) {
    read_check_kernel<<<touch_grid(bytes, sm_count), kThreads, 0, stream>>>(
        reinterpret_cast<const unsigned char*>(data), vectors_of(data, bytes), bytes, seed, mix64(seed), slots);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

void launch_write_pattern(cudaStream_t stream, std::byte* data, std::size_t bytes, std::uint64_t seed, int sm_count) {
    write_pattern_kernel<<<touch_grid(bytes, sm_count), kThreads, 0, stream>>>(
        reinterpret_cast<unsigned char*>(data), vectors_of(data, bytes), bytes, seed, mix64(seed));
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
