#include "methods/cuda/common/tma_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include <cuda/ptx>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda {

namespace {

namespace ptx = ::cuda::ptx;

// One thread per block issues everything: a pipeline of kTmaStages tiles in
// dynamic shared memory. The block's k-th tile is tile blockIdx.x + k *
// gridDim.x (tiles interleaved across blocks); it loads into stage k %
// kTmaStages (the stage's mbarrier counts the bytes in) and is stored from
// there (one bulk group per tile). After each store the issuer waits until at
// most kTmaStoresInFlight groups are pending; groups complete in order, so the
// store of tile k - kTmaStoresInFlight has read its stage, which is refilled
// with tile k - kTmaStoresInFlight + kTmaStages. The same code as the
// non-split path of scripts/bench/tma_probe.cu's tma_kernel (its `tiles/block`
// lines; with L2_HINTS, its `hint:el/ef` line of 2 x 16 KiB, 4 tiles/block)
// and, verbatim without the hints, hwcomm_new_kernel in
// scripts/bench/tma_probe_hwcomm.cuh (its `hwcomm-new` line): change both
// together. L2_HINTS (kTmaLocalL2Hints, local copies only): loads evict_last,
// stores evict_first; without it the plain cuda::ptx instructions.
template <bool L2_HINTS>
__global__ void tma_copy_kernel(unsigned char* dst, const unsigned char* src, std::size_t bulk_bytes,
                                std::size_t bytes) {
#if __CUDA_ARCH__ >= 900
    constexpr std::size_t kTile = kTmaTileBytes;
    constexpr std::size_t kWait = kTmaStoresInFlight;
    extern __shared__ __align__(128) unsigned char stages[];
    __shared__ alignas(8) std::uint64_t full[kTmaStages];
    if (threadIdx.x != 0) return;
    for (int s = 0; s < kTmaStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the async proxy sees the barriers
    // cuda::ptx (CCCL of CUDA 13.0) has no .L2::cache_hint form of cp.async.bulk: inline PTX (ISA 8.0,
    // sm_90), as scripts/bench/tma_probe_hints.cuh. The hinted load names shared::cluster where
    // cuda::ptx emits shared::cta: launched without clusters a block is its own cluster of one, and its
    // shared::cta addresses are valid shared::cluster addresses of itself.
    std::uint64_t load_policy = 0, store_policy = 0;
    if constexpr (L2_HINTS) {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(load_policy));
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(store_policy));
    }

    const std::size_t tiles = (bulk_bytes + kTile - 1) / kTile;
    auto size_of = [&](std::size_t tile) {
        const std::size_t left = bulk_bytes - tile * kTile;
        return static_cast<std::uint32_t>(left < kTile ? left : kTile);
    };
    auto stage = [&](std::size_t k) { return stages + (k % kTmaStages) * kTile; };
    auto tile_of = [&](std::size_t k) { return blockIdx.x + k * gridDim.x; };
    auto load = [&](std::size_t k) {
        std::uint64_t* bar = &full[k % kTmaStages];
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar,
                                             size_of(tile_of(k)));
        if constexpr (L2_HINTS)
            asm volatile(
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                " [%0], [%1], %2, [%3], %4;"
                :
                : "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(stage(k)))),
                  "l"(src + tile_of(k) * kTile), "r"(size_of(tile_of(k))),
                  "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(bar))), "l"(load_policy)
                : "memory");
        else
            ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage(k), src + tile_of(k) * kTile,
                               size_of(tile_of(k)), bar);
    };
    const std::size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    for (std::size_t k = 0; k < mine && k < kTmaStages; ++k) load(k);
    for (std::size_t k = 0; k < mine; ++k) {
        const auto parity = static_cast<std::uint32_t>((k / kTmaStages) & 1);
        while (!ptx::mbarrier_try_wait_parity(&full[k % kTmaStages], parity)) {
        }
        ptx::fence_proxy_async(ptx::space_shared);
        if constexpr (L2_HINTS)
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
                         :
                         : "l"(dst + tile_of(k) * kTile),
                           "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(stage(k)))),
                           "r"(size_of(tile_of(k))), "l"(store_policy)
                         : "memory");
        else
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + tile_of(k) * kTile, stage(k),
                               size_of(tile_of(k)));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<kTmaStoresInFlight>{});  // store k - kWait has read
        if (k + 1 > kWait && k - kWait + kTmaStages < mine) load(k - kWait + kTmaStages);
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});  // every store done before the kernel ends
    if (blockIdx.x == 0)
        for (std::size_t i = bulk_bytes; i < bytes; ++i) dst[i] = src[i];
#else
    (void)dst, (void)src, (void)bulk_bytes, (void)bytes;
    __trap();  // the launcher refuses first (why_no_tma)
#endif
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

std::size_t shared_for_resident_uncached(const void* kernel, int device, int resident, std::size_t needed) {
    int per_sm = 0, per_block_max = 0;
    HWCOMM_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    HWCOMM_CUDA_CHECK(cudaDeviceGetAttribute(&per_block_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    std::size_t bytes = std::min<std::size_t>(per_block_max, static_cast<std::size_t>(per_sm) / resident) / 128 * 128;
    for (; bytes > needed; bytes -= 128) {
        HWCOMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(bytes)));
        int fits = 0;
        HWCOMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, 32, bytes));
        if (fits >= resident) return bytes;
    }
    return needed;
}

// Dynamic shared memory per block such that at most `resident` blocks of
// `kernel` fit one SM of `device` (never less than `needed`): the largest
// multiple of 128 bytes for which the occupancy calculator says `resident`.
// Found once per kernel, device and count (launches of one sample are queued
// back to back), and the kernel's limit set to it each launch.
std::size_t shared_for_resident(const void* kernel, int device, int resident, std::size_t needed) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, int, std::size_t>, std::size_t> found;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, device, resident, needed);
    if (const auto it = found.find(key); it != found.end()) {
        HWCOMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(it->second)));
        return it->second;
    }
    return found[key] = shared_for_resident_uncached(kernel, device, resident, needed);
}

}  // namespace

std::string why_no_tma_cc(int cc_major, int cc_minor) {
    if (cc_major <= 0 || cc_major >= 9) return "";
    return "the bulk-copy unit (TMA, cp.async.bulk) needs sm_90 (Hopper) or newer, not sm_" +
           std::to_string(cc_major) + std::to_string(cc_minor);
}

std::string why_no_tma(int ordinal) {
    int major = 0, minor = 0;
    HWCOMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal));
    HWCOMM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal));
    const std::string why = why_no_tma_cc(major, minor);
    return why.empty() ? "" : "gpu " + std::to_string(ordinal) + ": " + why;
}

std::size_t tma_shared_bytes_per_block(TmaCopyShape shape) {
    if (shape.tiles_per_block < 1) throw MeasurementError("a TMA copy needs at least one tile per block");
    int device = 0;
    HWCOMM_CUDA_CHECK(cudaGetDevice(&device));
    // A block never holds more tiles than it copies: blocks of one tile take one stage of shared
    // memory, and twice as many fit an SM.
    const std::size_t needed =
        std::min<std::size_t>(kTmaStages, static_cast<std::size_t>(shape.tiles_per_block)) * kTmaTileBytes;
    const auto kernel = shape.l2_hints ? tma_copy_kernel<true> : tma_copy_kernel<false>;
    if (shape.resident_blocks_per_sm > 0)
        return shared_for_resident(reinterpret_cast<const void*>(kernel), device, shape.resident_blocks_per_sm, needed);
    // Over 48 KiB of dynamic shared memory is an opt-in, per function and device.
    if (needed > 48 * 1024)
        HWCOMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(needed)));
    return needed;
}

void launch_tma_copy(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes, TmaCopyShape shape) {
    int device = 0;
    HWCOMM_CUDA_CHECK(cudaGetDevice(&device));
    if (const std::string why = why_no_tma(device); !why.empty()) throw MeasurementError(why);
    if (!aligned16(dst) || !aligned16(src)) throw MeasurementError("a TMA copy needs 16-byte aligned buffers");
    const std::size_t bulk = bytes / 16 * 16;  // bulk copies move multiples of 16 bytes
    const std::size_t tiles = std::max<std::size_t>(1, (bulk + kTmaTileBytes - 1) / kTmaTileBytes);
    // Grid from the tile count (x dimension up to 2^31 - 1 blocks: 64 TiB at 2 x 16 KiB per block).
    if (shape.tiles_per_block < 1) throw MeasurementError("a TMA copy needs at least one tile per block");
    const std::size_t per_block = static_cast<std::size_t>(shape.tiles_per_block);
    const std::size_t blocks = (tiles + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu)
        throw MeasurementError("a TMA copy of " + std::to_string(bytes) + " bytes needs more than 2^31 - 1 blocks");
    const int grid = static_cast<int>(blocks);
    const auto kernel = shape.l2_hints ? tma_copy_kernel<true> : tma_copy_kernel<false>;
    const std::size_t shared_bytes = tma_shared_bytes_per_block(shape);
    // One warp per block: thread 0 issues, the rest return at once (a block must be a warp to be scheduled).
    kernel<<<grid, 32, shared_bytes, stream>>>(reinterpret_cast<unsigned char*>(dst),
                                               reinterpret_cast<const unsigned char*>(src), bulk, bytes);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
