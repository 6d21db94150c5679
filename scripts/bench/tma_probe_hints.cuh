#pragma once
// L2 cache-eviction hints and L2 prefetch for scripts/bench/tma_probe.cu (its
// "hint:..." and "prefetch+N" lines). cuda::ptx (CCCL of CUDA 13.0) has no
// .L2::cache_hint form of cp.async.bulk, so these are inline PTX. Included
// after <cuda/ptx>, <cstdint> and the probe's `ptx` alias.
//
// Why: a 512 MiB copy streams ~10x H100's 50 MiB L2 and every byte is touched
// once; evict_first might keep the write-backs of dst and the lines of src
// from pushing out lines still in use, and a prefetch starts a tile's DRAM
// read a step before its bulk load asks for it. A hint may be ignored by the
// hardware (PTX ISA: "performance hint only"); then a line equals its control.
//
// PTX (ISA 8.0, sm_90 for cp.async.bulk; createpolicy ISA 7.4, sm_80):
//   createpolicy.fractional.L2::<priority>.b64 policy, 1.0;
//   createpolicy.fractional.L2::evict_last{.L2::evict_first}.b64 policy, f;   (round 2)
// f, in (0, 1]: the share of accesses given the first priority; the rest get the
// second, evict_unchanged when none is named (ISA: second priority evict_first or
// evict_unchanged only). Which accesses fall in the share is the hardware's choice.
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint
//       [smem], [gmem], size, [mbar], policy;
//   cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [gmem], [smem], size, policy;
//   cp.async.bulk.prefetch.L2.global [gmem], size;
// The hinted load names shared::cluster (ISA 8.0) where the plain one
// (cuda::ptx, space_shared) emits shared::cta (ISA 8.6): without a cluster
// launch a block is its own cluster of one, and its shared::cta addresses are
// valid shared::cluster addresses of itself (CUTLASS's SM90 bulk loads do the
// same); without the hint both forms compile to byte-identical sm_90 code
// (the cubins' .text compared, nvcc 13.0).

// Which eviction priority a bulk copy's policy asks for; none = the plain instruction, no policy.
// Round 2 (kHintLines2): evict_last on a fraction of the accesses only, lastNN with the rest
// evict_unchanged (the secondary priority PTX takes when none is named), lastNN_first with the rest
// evict_first (the two-priority form, .L2::evict_last.L2::evict_first; the ISA's secondary
// priorities are evict_first and evict_unchanged only).
enum class L2 : int {
    none, first, last, normal, unchanged,
    last25, last50, last75, last25_first, last50_first, last75_first,
};

template <L2 P>
__device__ __forceinline__ uint64_t l2_policy() {  // fraction 1.0: every line the copy touches
    uint64_t p = 0;
    if constexpr (P == L2::first) asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::last) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::normal) asm("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::unchanged) asm("createpolicy.fractional.L2::evict_unchanged.b64 %0, 1.0;" : "=l"(p));
    // The fraction is the share of accesses given the primary priority (an f32 immediate in (0, 1]).
    if constexpr (P == L2::last25) asm("createpolicy.fractional.L2::evict_last.b64 %0, 0.25;" : "=l"(p));
    if constexpr (P == L2::last50) asm("createpolicy.fractional.L2::evict_last.b64 %0, 0.5;" : "=l"(p));
    if constexpr (P == L2::last75) asm("createpolicy.fractional.L2::evict_last.b64 %0, 0.75;" : "=l"(p));
    if constexpr (P == L2::last25_first)
        asm("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.25;" : "=l"(p));
    if constexpr (P == L2::last50_first)
        asm("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.5;" : "=l"(p));
    if constexpr (P == L2::last75_first)
        asm("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.75;" : "=l"(p));
    return p;
}

__device__ __forceinline__ void bulk_load_hint(void* smem, const void* gmem, uint32_t size, uint64_t* bar,
                                               uint64_t policy) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
        :
        : "r"(uint32_t(__cvta_generic_to_shared(smem))), "l"(gmem), "r"(size),
          "r"(uint32_t(__cvta_generic_to_shared(bar))), "l"(policy)
        : "memory");
}

__device__ __forceinline__ void bulk_store_hint(void* gmem, const void* smem, uint32_t size, uint64_t policy) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
                 :
                 : "l"(gmem), "r"(uint32_t(__cvta_generic_to_shared(smem))), "r"(size), "l"(policy)
                 : "memory");
}

// Completes on nothing (no mbarrier, no bulk group): a hint to start the read into L2.
__device__ __forceinline__ void bulk_prefetch_l2(const void* gmem, uint32_t size) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" : : "l"(gmem), "r"(size) : "memory");
}

// The lines the probe adds on each of its two best shapes, in this order,
// after a "control" line (that shape, the plain kernel). ld/st: the load's and
// the store's policy, "-" no hint, ef evict_first, el evict_last, en
// evict_normal, eu evict_unchanged. prefetch+N: while loading the block's
// k-th tile, prefetch its (k+N)-th into L2 (no hints).
struct HintLine {
    const char* knob;
    L2 load, store;
    int prefetch;
};
constexpr HintLine kHintLines[] = {
    {"hint:-/ef", L2::none, L2::first, 0},  // evict_first on the write path only, right beside its control
    {"hint:ef/-", L2::first, L2::none, 0},
    {"hint:ef/ef", L2::first, L2::first, 0},
    {"hint:el/ef", L2::last, L2::first, 0},
    {"hint:en/en", L2::normal, L2::normal, 0},        // the hinted instructions with the default priority: their cost
    {"hint:eu/eu", L2::unchanged, L2::unchanged, 0},  // ... and leaving each line's priority as it was
    {"prefetch+1", L2::none, L2::none, 1},
    {"prefetch+2", L2::none, L2::none, 2},
};
constexpr int kHintLineCount = int(sizeof kHintLines / sizeof kHintLines[0]);

// Round 2, after the blocks above (each line also a plain Variant field set: stages, tile, tiles per
// block; wait 0, one issuing thread, tiles interleaved). Around the round-1 lead, hint:el/ef on 2 x 16
// KiB, 4 tiles/block (0.995x CE at 512 MiB, 0.993x at 1 GiB on one H100 at afc1913, its control 0.985x
// and 0.982x): that line again, the store's hint dropped (el/-) or evict_normal (el/en), then the
// loads evict_last on 25/50/75% of their accesses only, the rest evict_unchanged (elNN) or evict_first
// (lfNN), stores evict_first. Then el/ef on four neighbouring shapes. Each block starts with its own
// "control" (the plain kernel, that shape); read a line against the control above it.
struct HintLine2 {
    const char* knob;
    int stages, tile_kib, tiles_per_block;
    L2 load, store;
};
constexpr HintLine2 kHintLines2[] = {
    {"control", 2, 16, 4, L2::none, L2::none},
    {"hint:el/ef", 2, 16, 4, L2::last, L2::first},  // round 1's lead again, beside a fresh control
    {"hint:el/-", 2, 16, 4, L2::last, L2::none},
    {"hint:el/en", 2, 16, 4, L2::last, L2::normal},
    {"hint:el25/ef", 2, 16, 4, L2::last25, L2::first},
    {"hint:el50/ef", 2, 16, 4, L2::last50, L2::first},
    {"hint:el75/ef", 2, 16, 4, L2::last75, L2::first},
    {"hint:lf25/ef", 2, 16, 4, L2::last25_first, L2::first},
    {"hint:lf50/ef", 2, 16, 4, L2::last50_first, L2::first},
    {"hint:lf75/ef", 2, 16, 4, L2::last75_first, L2::first},
    {"control", 3, 16, 4, L2::none, L2::none},  // one more stage
    {"hint:el/ef", 3, 16, 4, L2::last, L2::first},
    {"control", 2, 32, 4, L2::none, L2::none},  // tiles twice the size
    {"hint:el/ef", 2, 32, 4, L2::last, L2::first},
    {"control", 2, 16, 2, L2::none, L2::none},  // half the tiles per block (twice the blocks)
    {"hint:el/ef", 2, 16, 2, L2::last, L2::first},
    {"control", 2, 16, 8, L2::none, L2::none},  // twice the tiles per block
    {"hint:el/ef", 2, 16, 8, L2::last, L2::first},
};
constexpr int kHintLine2Count = int(sizeof kHintLines2 / sizeof kHintLines2[0]);
