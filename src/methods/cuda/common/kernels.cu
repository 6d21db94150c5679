#include "methods/cuda/common/kernels.hpp"

#include <algorithm>
#include <cstdint>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/pattern.hpp"

namespace hwcomm::cuda {

namespace {

constexpr int kThreads = 512;
constexpr std::size_t kTileVectors = kTiledCopyTileBytes / 16;
constexpr int kTileThreads = 256;
constexpr int kBlocksPerSm = 4;  // 4 x 512 threads: a full H100/H200 SM

__device__ __forceinline__ unsigned long long global_timer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void blocking_kernel(const volatile int* flag, volatile int* timed_out, unsigned long long timeout_ns) {
    const unsigned long long start = global_timer_ns();
    while (*flag == 0) {
        if (global_timer_ns() - start > timeout_ns) {
            *timed_out = 1;
            __threadfence_system();
            return;
        }
        __nanosleep(256);  // poll the host flag without flooding PCIe
    }
}

// Four independent 16-byte loads in flight per thread before the stores:
// peer (NVLink) and mapped host (PCIe) loads have microseconds of latency.
__global__ void copy_kernel(unsigned char* dst_bytes, const unsigned char* src_bytes, std::size_t vectors,
                            std::size_t bytes) {
    uint4* dst = reinterpret_cast<uint4*>(dst_bytes);
    const uint4* src = reinterpret_cast<const uint4*>(src_bytes);
    const std::size_t tail_begin = vectors * 16;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    std::size_t i = tid;
    for (; i + 3 * stride < vectors; i += 4 * stride) {
        const uint4 a = src[i];
        const uint4 b = src[i + stride];
        const uint4 c = src[i + 2 * stride];
        const uint4 d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < vectors; i += stride) dst[i] = src[i];
    for (std::size_t j = tail_begin + tid; j < bytes; j += stride) dst_bytes[j] = src_bytes[j];
}

// One short block per tile: the block scheduler hands out SM slots tile by
// tile, so a kernel of higher stream priority gets slots as soon as a few
// tiles end instead of after the whole copy (a grid-stride kernel holds its
// slots to the end).
__global__ void tiled_copy_kernel(uint4* dst, const uint4* src, std::size_t vectors) {
    const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * kTileVectors;
    const std::size_t end = begin + kTileVectors < vectors ? begin + kTileVectors : vectors;
    for (std::size_t i = begin + threadIdx.x; i < end; i += blockDim.x) dst[i] = src[i];
}

__global__ void fill_kernel(unsigned long long* words, std::size_t nwords, unsigned char* bytes_ptr,
                            std::size_t bytes, unsigned long long seed, unsigned long long flip) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (std::size_t w = tid; w < nwords; w += stride) words[w] = pattern_word(w, seed) ^ flip;
    for (std::size_t i = nwords * 8 + tid; i < bytes; i += stride)
        bytes_ptr[i] = static_cast<unsigned char>(pattern_byte(i, seed) ^ static_cast<unsigned char>(flip));
}

__global__ void count_kernel(const unsigned long long* words, std::size_t nwords, const unsigned char* bytes_ptr,
                             std::size_t bytes, unsigned long long seed, unsigned long long* result) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned long long count = 0;
    unsigned long long first = ~0ull;
    for (std::size_t w = tid; w < nwords; w += stride) {
        const unsigned long long diff = words[w] ^ pattern_word(w, seed);
        if (diff == 0) continue;
        for (unsigned k = 0; k < 8; ++k) {
            if ((diff >> (8 * k)) & 0xffull) {
                ++count;
                first = min(first, static_cast<unsigned long long>(w * 8 + k));
            }
        }
    }
    for (std::size_t i = nwords * 8 + tid; i < bytes; i += stride) {
        if (bytes_ptr[i] != pattern_byte(i, seed)) {
            ++count;
            first = min(first, static_cast<unsigned long long>(i));
        }
    }
    if (count) {
        atomicAdd(&result[0], count);
        atomicMin(&result[1], first);
    }
}

int grid_for(std::size_t items, int sm_count) {
    const std::size_t wanted = (items + kThreads - 1) / kThreads;
    const std::size_t most = static_cast<std::size_t>(std::max(sm_count, 1)) * kBlocksPerSm;
    return static_cast<int>(std::clamp<std::size_t>(wanted, 1, most));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
bool aligned8(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 8 == 0; }

}  // namespace

void launch_blocking_kernel(cudaStream_t stream, const volatile int* flag, volatile int* timed_out,
                            std::uint64_t timeout_ns) {
    blocking_kernel<<<1, 1, 0, stream>>>(flag, timed_out, timeout_ns);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

void launch_copy_kernel(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes, int sm_count) {
    const bool vec = aligned16(dst) && aligned16(src);
    const std::size_t vectors = vec ? bytes / 16 : 0;
    const int grid = grid_for(vec ? vectors : bytes, sm_count);
    copy_kernel<<<grid, kThreads, 0, stream>>>(reinterpret_cast<unsigned char*>(dst),
                                               reinterpret_cast<const unsigned char*>(src), vectors, bytes);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

void launch_tiled_copy_kernel(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes) {
    if (bytes % 16 || reinterpret_cast<std::uintptr_t>(dst) % 16 || reinterpret_cast<std::uintptr_t>(src) % 16)
        throw MeasurementError("a tiled copy moves whole 16-byte vectors between 16-byte aligned buffers");
    const std::size_t vectors = bytes / 16;
    const std::size_t tiles = (vectors + kTileVectors - 1) / kTileVectors;
    tiled_copy_kernel<<<static_cast<unsigned>(tiles), kTileThreads, 0, stream>>>(
        reinterpret_cast<uint4*>(dst), reinterpret_cast<const uint4*>(src), vectors);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

void launch_fill_pattern(cudaStream_t stream, std::byte* data, std::size_t bytes, std::uint64_t seed, bool invert,
                         int sm_count) {
    const std::size_t nwords = aligned8(data) ? bytes / 8 : 0;
    const int grid = grid_for(std::max<std::size_t>(nwords, 1), sm_count);
    fill_kernel<<<grid, kThreads, 0, stream>>>(reinterpret_cast<unsigned long long*>(data), nwords,
                                               reinterpret_cast<unsigned char*>(data), bytes, seed,
                                               invert ? ~0ull : 0ull);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

void launch_count_mismatches(cudaStream_t stream, const std::byte* data, std::size_t bytes, std::uint64_t seed,
                             unsigned long long* result, int sm_count) {
    const std::size_t nwords = aligned8(data) ? bytes / 8 : 0;
    const int grid = grid_for(std::max<std::size_t>(nwords, 1), sm_count);
    count_kernel<<<grid, kThreads, 0, stream>>>(reinterpret_cast<const unsigned long long*>(data), nwords,
                                                reinterpret_cast<const unsigned char*>(data), bytes, seed, result);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
