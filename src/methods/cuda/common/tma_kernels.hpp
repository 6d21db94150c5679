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

// The kernel's shape, in one place (scripts/bench/tma_probe.cu times the
// alternatives beside the copy engines; its `tiles/block` 4 line, 0.985x the
// copy engines at 512 MiB on nvidia-h100-x1, is this shape and its
// `hwcomm-new` line this kernel): bytes per bulk copy (one tile), tiles of
// shared memory per block (stages), stores a block leaves outstanding before
// it refills a stage (the wait depth: 0 waits for every store to have read
// shared memory), tiles per block (grid = tiles / this, block b copying tiles
// b, b + grid, b + 2 grid, ...: many short blocks, as many resident per SM as
// its shared memory holds, instead of a fixed grid of long ones).
inline constexpr std::size_t kTmaTileBytes = 16 * 1024;
inline constexpr int kTmaStages = 2;
inline constexpr int kTmaStoresInFlight = 0;
inline constexpr int kTmaTilesPerBlock = 4;
static_assert(kTmaTileBytes % 16 == 0 && kTmaTileBytes < (1u << 20), "a bulk copy moves multiples of 16 bytes");
static_assert(kTmaStoresInFlight >= 0 && kTmaStoresInFlight < kTmaStages, "a stage must be free to load into");
static_assert(kTmaTilesPerBlock >= 1, "a block copies at least one tile");
// Each SM has 228 KiB of shared memory, 1 KiB of it reserved per block; one block may take 227 KiB.
static_assert(kTmaStages * kTmaTileBytes <= 227 * 1024, "one block's stages must fit an SM's shared memory");

// L2 eviction hints for a copy within one GPU's own memory (tma-copy-d2d from
// a GPU to itself): the bulk loads carry an evict_last policy (createpolicy
// fraction 1.0), the bulk stores evict_first. Why: scripts/bench/tma_probe.cu's
// "hint:el/ef" line, this kernel's shape with these hints, moved 1486.8 GB/s =
// 0.995x the copy engines at 512 MiB and 0.993x at 1 GiB on nvidia-h100-x1 at
// afc1913, against 0.985x and 0.982x for the plain kernel timed just before it
// ("control"); evict_first on the loads (ef/-) was slower, 0.970x, and
// prefetching the next tile into L2 much slower, 0.87x. Measured on local HBM
// only, where both streams meet in this GPU's L2; over NVLink or PCIe the L2
// plays another part, unmeasured, so peer, host and lane copies keep the plain
// instructions. The hints are not better at every size: below 512 MiB on
// H100 they cost 5.5% (64 MiB), 2.7% (128 MiB) and 0.3-0.5% (256 MiB)
// against the same shape without them, on H200 they gain from 128 MiB (+0.9%,
// +2.3% at 256 MiB, +4.4% at 512 MiB) and cost 0.9% at 64 MiB
// (scripts/device-tma-probe.sh's lines, each pair timed back to back:
// nvidia-h100-x1 and nvidia-h200-x1 at 14c738b, docs/benchmarks.md
// "Sixteenth session"). So a local copy measures both shapes at every size,
// as the variants of its record, and each point keeps the faster
// (kTmaLocalVariants). false: no hints anywhere, one shape.
inline constexpr bool kTmaLocalL2Hints = true;
// The shape of a copy within one GPU's memory: blocks of one tile, at most 3
// resident per SM (48 KiB of bulk copies in flight per SM, 6 MiB over 132
// SMs). scripts/bench/tma_ab.cu (hwcomm's launcher interleaved round by round
// with the copy engines, so no drift between them) found the uncapped shape
// (2 tiles a block, 6 resident per SM: 192 KiB in flight per SM) 2-7% short
// of the copy engines at 64-256 MiB on H200 and 1-2% on H100, and that fewer
// bulk copies in flight closed most of it: 1 tile, 3 resident, the faster of
// the plain and hinted variants, / copy engines at 64, 128, 256, 512 MiB and
// 1 GiB: 0.990, 0.993, 0.996, 1.013, 1.012 on nvidia-h100-x1 (the uncapped
// shape 0.978, 0.990, 0.985, 1.003, 1.003) and 0.984, 0.977, 1.000, 1.012,
// 1.011 on nvidia-h200 (0.932, 0.959, 0.992, 1.005, 1.003); 2 resident or
// fewer starve the copy (0.86 on H200). Other bulk copies (peer, host) keep
// kTmaTilesPerBlock uncapped, the shape measured on their links.
inline constexpr int kTmaLocalTilesPerBlock = 1;
inline constexpr int kTmaLocalResidentBlocksPerSm = 3;
static_assert(kTmaLocalTilesPerBlock >= 1, "a block copies at least one tile");


// How a bulk copy is launched: the L2 hints and the tiles each block copies.
struct TmaCopyShape {
    bool l2_hints = false;
    int tiles_per_block = kTmaTilesPerBlock;
    // At most this many blocks resident per SM (0: as many as their shared
    // memory lets fit), by asking each block for 1/n of an SM's shared memory:
    // it caps the bulk copies in flight per SM.
    int resident_blocks_per_sm = 0;
};
// A copy within one GPU's memory, without and with the hints, in the same shape.
inline constexpr TmaCopyShape kTmaLocalPlain{false, kTmaLocalTilesPerBlock, kTmaLocalResidentBlocksPerSm};
inline constexpr TmaCopyShape kTmaLocalHinted{true, kTmaLocalTilesPerBlock, kTmaLocalResidentBlocksPerSm};
// The variant labels of tma-copy-d2d within one GPU, in that order.
inline constexpr const char* kTmaLocalPlainVariant = "l2_hints=off";
inline constexpr const char* kTmaLocalHintedVariant = "l2_hints=on";

// dst[0, bytes) = src[0, bytes) by bulk copies of up to kTmaTileBytes, each
// staged through the block's shared memory; the last bytes % 16 by one thread.
// Both pointers 16-byte aligned (cudaMalloc'd, host pages, peer pointers);
// either may be a peer GPU's or a mapped host pointer. Throws
// MeasurementError when the GPU of the current device has no bulk-copy unit.
// The grid follows from `bytes` alone (ceil(tiles / shape.tiles_per_block)
// blocks of one warp): the block scheduler spreads them over whatever SMs are
// free, so a lane sharing the GPU with other kernels needs no SM count.
// `shape.l2_hints`: the loads evict_last, the stores evict_first
// (kTmaLocalL2Hints); else the plain cuda::ptx instructions.
void launch_tma_copy(cudaStream_t stream, std::byte* dst, const std::byte* src, std::size_t bytes,
                     TmaCopyShape shape = {});
// The dynamic shared memory each block of a copy in `shape` asks for on the
// current device (the kernel's limit raised to it): its stages, or with
// `resident_blocks_per_sm` the share of an SM that lets no more fit.
std::size_t tma_shared_bytes_per_block(TmaCopyShape shape);



}  // namespace hwcomm::cuda
