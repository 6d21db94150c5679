#pragma once
// hwcomm's TMA copy kernels, verbatim, for scripts/bench/tma_probe.cu (its
// `hwcomm-old` and `hwcomm-new` lines): the probe includes this file after
// <cuda/ptx>, <cstdint> and its `ptx` namespace alias.

// ---- hwcomm's old kernel, verbatim from src/methods/cuda/common/tma_kernels.cu (main, ff27055) ----
constexpr uint32_t kHwTile = 16 * 1024;
constexpr int kHwStages = 2;
constexpr int kHwBlocksPerSm = 4;
__global__ void hwcomm_kernel(unsigned char* dst, const unsigned char* src, size_t bulk_bytes, size_t bytes) {
    constexpr uint32_t kTile = kHwTile;
    constexpr int kTmaStages = kHwStages;
    __shared__ alignas(128) unsigned char stage[kTmaStages][kTile];
    __shared__ alignas(8) uint64_t full[kTmaStages];
    if (threadIdx.x != 0) return;
    for (int s = 0; s < kTmaStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    const size_t tiles = (bulk_bytes + kTile - 1) / kTile;
    auto size_of = [&](size_t tile) {
        const size_t left = bulk_bytes - tile * kTile;
        return static_cast<uint32_t>(left < kTile ? left : kTile);
    };
    auto load = [&](size_t tile, int s) {
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                             size_of(tile));
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage[s], src + tile * kTile, size_of(tile), &full[s]);
    };
    size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    for (size_t k = 0; k < mine && k < kTmaStages; ++k) load(blockIdx.x + k * gridDim.x, static_cast<int>(k));
    for (size_t k = 0; k < mine; ++k) {
        const int s = static_cast<int>(k % kTmaStages);
        const size_t tile = blockIdx.x + k * gridDim.x;
        const uint32_t parity = static_cast<uint32_t>((k / kTmaStages) & 1);
        while (!ptx::mbarrier_try_wait_parity(&full[s], parity)) {
        }
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + tile * kTile, stage[s], size_of(tile));
        ptx::cp_async_bulk_commit_group();
        if (k + kTmaStages < mine) {
            ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
            load(tile + kTmaStages * gridDim.x, s);
        }
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
    if (blockIdx.x == 0)
        for (size_t i = bulk_bytes; i < bytes; ++i) dst[i] = src[i];
}

// ---- hwcomm's new kernel, verbatim from src/methods/cuda/common/tma_kernels.cu (branch tma, 80591be) ----
// The shape of the `tiles/block` 4 line: 2 stages x 16 KiB, wait 0, grid = tiles / 4, interleaved.
constexpr size_t kTmaTileBytes = 16 * 1024;
constexpr int kTmaStages = 2;
constexpr int kTmaStoresInFlight = 0;
constexpr int kTmaTilesPerBlock = 4;
__global__ void hwcomm_new_kernel(unsigned char* dst, const unsigned char* src, size_t bulk_bytes, size_t bytes) {
    constexpr size_t kTile = kTmaTileBytes;
    constexpr size_t kWait = kTmaStoresInFlight;
    extern __shared__ __align__(128) unsigned char stages[];
    __shared__ alignas(8) uint64_t full[kTmaStages];
    if (threadIdx.x != 0) return;
    for (int s = 0; s < kTmaStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    const size_t tiles = (bulk_bytes + kTile - 1) / kTile;
    auto size_of = [&](size_t tile) {
        const size_t left = bulk_bytes - tile * kTile;
        return static_cast<uint32_t>(left < kTile ? left : kTile);
    };
    auto stage = [&](size_t k) { return stages + (k % kTmaStages) * kTile; };
    auto tile_of = [&](size_t k) { return blockIdx.x + k * gridDim.x; };
    auto load = [&](size_t k) {
        uint64_t* bar = &full[k % kTmaStages];
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar,
                                             size_of(tile_of(k)));
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage(k), src + tile_of(k) * kTile,
                           size_of(tile_of(k)), bar);
    };
    const size_t mine = tiles > blockIdx.x ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    for (size_t k = 0; k < mine && k < kTmaStages; ++k) load(k);
    for (size_t k = 0; k < mine; ++k) {
        const auto parity = static_cast<uint32_t>((k / kTmaStages) & 1);
        while (!ptx::mbarrier_try_wait_parity(&full[k % kTmaStages], parity)) {
        }
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + tile_of(k) * kTile, stage(k),
                           size_of(tile_of(k)));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<kTmaStoresInFlight>{});
        if (k + 1 > kWait && k - kWait + kTmaStages < mine) load(k - kWait + kTmaStages);
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});
    if (blockIdx.x == 0)
        for (size_t i = bulk_bytes; i < bytes; ++i) dst[i] = src[i];
}
