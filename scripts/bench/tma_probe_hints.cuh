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
enum class L2 : int { none, first, last, normal, unchanged };

template <L2 P>
__device__ __forceinline__ uint64_t l2_policy() {  // fraction 1.0: every line the copy touches
    uint64_t p = 0;
    if constexpr (P == L2::first) asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::last) asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::normal) asm("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(p));
    if constexpr (P == L2::unchanged) asm("createpolicy.fractional.L2::evict_unchanged.b64 %0, 1.0;" : "=l"(p));
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
