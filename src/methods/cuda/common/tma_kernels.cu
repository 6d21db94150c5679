#include "methods/cuda/common/tma_kernels.hpp"

#include <algorithm>
#include <cstdint>

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
// lines) and, verbatim, hwcomm_new_kernel in scripts/bench/tma_probe_hwcomm.cuh
// (its `hwcomm-new` line): change both together.
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

void launch_tma_copy(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes) {
    int device = 0;
    HWCOMM_CUDA_CHECK(cudaGetDevice(&device));
    if (const std::string why = why_no_tma(device); !why.empty()) throw MeasurementError(why);
    if (!aligned16(dst) || !aligned16(src)) throw MeasurementError("a TMA copy needs 16-byte aligned buffers");
    const std::size_t bulk = bytes / 16 * 16;  // bulk copies move multiples of 16 bytes
    const std::size_t tiles = std::max<std::size_t>(1, (bulk + kTmaTileBytes - 1) / kTmaTileBytes);
    // Grid from the tile count (x dimension up to 2^31 - 1 blocks: 128 TiB at 4 x 16 KiB per block).
    const std::size_t blocks = (tiles + kTmaTilesPerBlock - 1) / kTmaTilesPerBlock;
    if (blocks > 0x7fffffffu)
        throw MeasurementError("a TMA copy of " + std::to_string(bytes) + " bytes needs more than 2^31 - 1 blocks");
    const int grid = static_cast<int>(blocks);
    constexpr std::size_t shared_bytes = kTmaStages * kTmaTileBytes;
    // Over 48 KiB of dynamic shared memory is an opt-in, per function and device.
    if constexpr (shared_bytes > 48 * 1024)
        HWCOMM_CUDA_CHECK(cudaFuncSetAttribute(tma_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(shared_bytes)));
    // One warp per block: thread 0 issues, the rest return at once (a block must be a warp to be scheduled).
    tma_copy_kernel<<<grid, 32, shared_bytes, stream>>>(reinterpret_cast<unsigned char*>(dst),
                                             reinterpret_cast<const unsigned char*>(src), bulk, bytes);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
