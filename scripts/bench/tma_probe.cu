// Probe for issue 22 ("TMA local copy >= CE local copy on H100 and H200"):
// which shape of bulk-copy (TMA, cp.async.bulk) kernel copies within one GPU
// fastest, every variant timed side by side with the copy engines in one
// process so ratios need no memory. Not part of hwcomm; built here with nvcc,
// run by scripts/device-tma-probe.sh:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o tma_probe scripts/bench/tma_probe.cu
//   ./tma_probe [--device N] [--mib 512] [--trials 7] [--reps 8] [--sweep 1]
// One line per variant: median and best GB/s over the trials (GB/s = 1e9 B/s,
// bytes copied once per copy), ratio of the median to the copy engines'
// median, blocks resident per SM, whether dst held src after the timed copies.
// Knobs (columns): stages (tiles of shared memory per block), tile (bytes per
// bulk copy), blocks/SM (grid = SMs x this, each block striding over the
// tiles) or tiles/block (grid = tiles / this), wait (stores allowed to be
// outstanding before a stage is refilled: 0 = wait_group_read<0>, hwcomm's),
// issue (one thread issues loads and stores, or a producer thread loads and a
// consumer thread stores, handing stages back through "empty" mbarriers),
// layout (tiles interleaved across blocks, or one contiguous range per block).
// Last, on the two best shapes (tiles/block 4; 3 stages, wait 1, 1 block/SM):
// a "control" line (the plain kernel again), then L2 eviction hints on the
// bulk loads/stores ("hint:LD/ST") and L2 prefetch ("prefetch+N"), each to be
// read against the control line just above it (tma_probe_hints.cuh). Then round
// 2 (kHintLines2): around hint:el/ef on 2 x 16 KiB, 4 tiles/block, evict_last
// on a fraction of the loads, other store hints, and el/ef on neighbouring
// shapes, again each block after its own control line.
// Since e263353 hwcomm's local copy is 1 tile a block with at most 3 blocks
// resident per SM, a cap this probe cannot set: scripts/bench/tma_ab.cu times
// that shape (hwcomm's launcher itself) interleaved with the copy engines.
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "probe_common.cuh"  // CHECK, time_trials, fill and verify

namespace ptx = cuda::ptx;

#include "tma_probe_hwcomm.cuh"  // hwcomm_kernel (old) and hwcomm_new_kernel, verbatim
#include "tma_probe_hints.cuh"   // L2 eviction policies, hinted bulk copies, L2 prefetch

// ---- the parameterised kernel ----
constexpr int kMaxStages = 8;

// Which tiles block b copies: its k-th tile.
struct Tiles {
    size_t count;      // tiles in the whole buffer
    bool contiguous;   // one range per block, else interleaved by gridDim.x
    __device__ size_t mine() const {
        if (contiguous) {
            const size_t per = (count + gridDim.x - 1) / gridDim.x, begin = size_t(blockIdx.x) * per;
            return begin >= count ? 0 : min(per, count - begin);
        }
        return count > blockIdx.x ? (count - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    }
    __device__ size_t tile(size_t k) const {
        if (contiguous) return size_t(blockIdx.x) * ((count + gridDim.x - 1) / gridDim.x) + k;
        return blockIdx.x + k * gridDim.x;
    }
};

// STAGES tiles of `tile` bytes in dynamic shared memory. WAIT stores may stay
// outstanding: after committing the store of tile k the issuer waits until
// stores <= k - WAIT have read shared memory (bulk groups complete in order)
// and refills that tile's stage. WAIT = 0 is hwcomm's shape; WAIT = STAGES - 1
// leaves one load in flight. SPLIT: thread 0 loads, thread 32 stores.
// LD, ST: L2 eviction policy of the loads and stores; PF: prefetch the block's
// tile k + PF into L2 when loading tile k (one issuing thread only). Their
// defaults compile to the kernel without them, which every older line runs.
template <int STAGES, int WAIT, bool SPLIT, L2 LD = L2::none, L2 ST = L2::none, int PF = 0>
__global__ void tma_kernel(unsigned char* dst, const unsigned char* src, size_t bulk_bytes, uint32_t tile_bytes,
                           bool contiguous) {
    static_assert(WAIT >= 0 && WAIT < STAGES && STAGES <= kMaxStages, "wait depth below stages");
    static_assert(PF == 0 || !SPLIT, "prefetch with one issuing thread only");
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
    const Tiles t{(bulk_bytes + tile_bytes - 1) / tile_bytes, contiguous};
    const uint64_t ld_policy = l2_policy<LD>(), st_policy = l2_policy<ST>();  // unused (none) without hints
    auto size_of = [&](size_t tile) {
        const size_t left = bulk_bytes - tile * tile_bytes;
        return static_cast<uint32_t>(left < tile_bytes ? left : tile_bytes);
    };
    auto stage = [&](int s) { return smem + size_t(s) * tile_bytes; };
    auto load = [&](size_t tile, int s) {
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                             size_of(tile));
        if constexpr (LD == L2::none)
            ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage(s), src + tile * tile_bytes, size_of(tile),
                               &full[s]);
        else
            bulk_load_hint(stage(s), src + tile * tile_bytes, size_of(tile), &full[s], ld_policy);
    };
    auto store = [&](size_t k) {  // the k-th tile of this block, once loaded
        const int s = int(k % STAGES);
        while (!ptx::mbarrier_try_wait_parity(&full[s], uint32_t((k / STAGES) & 1))) {
        }
        ptx::fence_proxy_async(ptx::space_shared);
        if constexpr (ST == L2::none)
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst + t.tile(k) * tile_bytes, stage(s),
                               size_of(t.tile(k)));
        else
            bulk_store_hint(dst + t.tile(k) * tile_bytes, stage(s), size_of(t.tile(k)), st_policy);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<WAIT>{});  // stores <= k - WAIT have read their stages
    };
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], 1);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    if (SPLIT) __syncthreads();
    const size_t mine = t.mine();
    auto ahead = [&](size_t k) {  // after loading tile k: prefetch tile k + PF unless the first STAGES loads hold it
        if constexpr (PF > 0)
            if (k + PF >= STAGES && k + PF < mine)
                bulk_prefetch_l2(src + t.tile(k + PF) * tile_bytes, size_of(t.tile(k + PF)));
    };
    if (!SPLIT) {
        if (threadIdx.x != 0) return;
        for (size_t k = 0; k < mine && k < STAGES; ++k) load(t.tile(k), int(k)), ahead(k);
        for (size_t k = 0; k < mine; ++k) {
            store(k);
            if (k + 1 > size_t(WAIT) && k - WAIT + STAGES < mine)
                load(t.tile(k - WAIT + STAGES), int((k - WAIT) % STAGES)), ahead(k - WAIT + STAGES);
        }
    } else if (threadIdx.x == 0) {  // producer: tile k waits for its stage's previous tile to be read
        for (size_t k = 0; k < mine; ++k) {
            const int s = int(k % STAGES);
            if (k >= STAGES)
                while (!ptx::mbarrier_try_wait_parity(&empty[s], uint32_t((k / STAGES - 1) & 1))) {
                }
            load(t.tile(k), s);
        }
    } else if (threadIdx.x == 32) {  // consumer: hands back the stage of tile k - WAIT
        for (size_t k = 0; k < mine; ++k) {
            store(k);
            if (k + 1 > size_t(WAIT)) (void)ptx::mbarrier_arrive(&empty[(k - WAIT) % STAGES]);
        }
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>{});  // every store done before the kernel ends
}

using Kernel = void (*)(unsigned char*, const unsigned char*, size_t, uint32_t, bool);

template <int S>
Kernel pick_wait(int wait, bool split) {
    if constexpr (S > 1) {
        if (wait == S - 1) return split ? tma_kernel<S, S - 1, true> : tma_kernel<S, S - 1, false>;
    }
    if constexpr (S > 2) {
        if (wait == S / 2) return split ? tma_kernel<S, S / 2, true> : tma_kernel<S, S / 2, false>;
    }
    if constexpr (S > 1) {
        if (wait == 1) return split ? tma_kernel<S, 1, true> : tma_kernel<S, 1, false>;
    }
    if (wait == 0) return split ? tma_kernel<S, 0, true> : tma_kernel<S, 0, false>;
    return nullptr;
}
Kernel pick(int stages, int wait, bool split) {
    switch (stages) {
        case 2: return pick_wait<2>(wait, split);
        case 3: return pick_wait<3>(wait, split);
        case 4: return pick_wait<4>(wait, split);
        case 6: return pick_wait<6>(wait, split);
        case 8: return pick_wait<8>(wait, split);
    }
    return nullptr;
}
// The kernel of kHintLines[i] on a shape of the hint lines (one issuing thread).
template <int S, int W, size_t... I>
Kernel pick_hint(int i, std::index_sequence<I...>) {
    const Kernel k[] = {tma_kernel<S, W, false, kHintLines[I].load, kHintLines[I].store, kHintLines[I].prefetch>...};
    return k[i];
}
Kernel pick_hint(int stages, int wait, int i) {
    constexpr auto all = std::make_index_sequence<kHintLineCount>{};
    if (stages == 2 && wait == 0) return pick_hint<2, 0>(i, all);
    if (stages == 3 && wait == 1) return pick_hint<3, 1>(i, all);
    return nullptr;
}
// The kernel of kHintLines2[i] (wait 0, one issuing thread; control lines: the plain kernel).
template <size_t... I>
Kernel pick_hint2(int i, std::index_sequence<I...>) {
    const Kernel k[] = {tma_kernel<kHintLines2[I].stages, 0, false, kHintLines2[I].load, kHintLines2[I].store>...};
    return k[i];
}
Kernel pick_hint2(int i) { return pick_hint2(i, std::make_index_sequence<kHintLine2Count>{}); }

struct Variant {
    std::string knob;  // what this line varies
    int stages = 2;
    uint32_t tile = 16 * 1024;
    int blocks_per_sm = 4;     // grid = SMs x this when tiles_per_block == 0
    int tiles_per_block = 0;   // else grid = tiles / this
    int wait = 0;
    bool split = false, contiguous = false;
    int verbatim = 0;  // 1: hwcomm's old kernel, 2: hwcomm's new kernel, 0: the parameterised one
    int hint = -1;     // >= 0: the parameterised kernel with kHintLines[hint]
    int hint2 = -1;    // >= 0: the parameterised kernel of kHintLines2[hint2] (round 2)
};

std::vector<Variant> variants(bool sweep) {
    std::vector<Variant> v;
    Variant base;
    base.knob = "hwcomm-old";
    base.verbatim = 1;
    v.push_back(base);
    base.verbatim = 0;
    base.knob = "same,param";  // the parameterised kernel in the old kernel's shape: must match the line above
    v.push_back(base);
    Variant now = base;  // hwcomm's new kernel: the shape of the first `tiles/block` line
    now.knob = "hwcomm-new";
    now.verbatim = 2;
    now.stages = kTmaStages, now.tile = uint32_t(kTmaTileBytes), now.wait = kTmaStoresInFlight;
    now.tiles_per_block = kTmaTilesPerBlock;
    v.push_back(now);
    auto one = [&](const char* knob, auto set) {
        Variant x = base;
        x.knob = knob;
        set(x);
        v.push_back(x);
    };
    // One knob at a time around hwcomm's shape (blocks/SM lowered where the shared memory does not fit 4).
    for (int s : {3, 4, 6, 8}) one("stages", [&](Variant& x) { x.stages = s; x.blocks_per_sm = std::max(1, 13 / s); });
    for (uint32_t kib : {8u, 32u, 64u}) one("tile", [&](Variant& x) { x.tile = kib << 10; x.blocks_per_sm = kib == 64 ? 1 : kib == 32 ? 3 : 4; });
    for (int b : {1, 2}) one("blocks/SM", [&](Variant& x) { x.blocks_per_sm = b; });
    one("wait", [&](Variant& x) { x.wait = 1; });
    one("split", [&](Variant& x) { x.split = true; });
    one("split", [&](Variant& x) { x.split = true; x.wait = 1; });
    for (int tpb : {4, 16}) one("tiles/block", [&](Variant& x) { x.tiles_per_block = tpb; });
    one("layout", [&](Variant& x) { x.contiguous = true; });
    // Combinations: every (stages, tile, blocks/SM) that fits 220 KiB of shared memory per SM, wait 0, 1, S/2, S-1.
    if (sweep)
        for (int s : {2, 3, 4, 6, 8})
            for (uint32_t kib : {8u, 16u, 32u, 64u})
                for (int b : {1, 2, 4}) {
                    if (uint32_t(s) * kib * b > 220 || uint32_t(s) * kib > 227) continue;
                    std::vector<int> waits{0, 1, s / 2, s - 1};
                    std::sort(waits.begin(), waits.end());
                    waits.erase(std::unique(waits.begin(), waits.end()), waits.end());
                    for (int w : waits)
                        for (bool split : {false, true}) {
                            if (w == 0 && s == 2 && kib == 16 && b == 4 && !split) continue;  // = base
                            Variant x = base;
                            x.knob = "combo";
                            x.stages = s, x.tile = kib << 10, x.blocks_per_sm = b, x.wait = w, x.split = split;
                            v.push_back(x);
                        }
                }
    // L2 hints and prefetch (tma_probe_hints.cuh) on the two best shapes of docs/benchmarks.md, each block after
    // a "control" line (the same shape, the plain kernel) timed right before, so a hint is read against it and
    // not against a line timed minutes earlier. Full trials: 18 lines per size of shapes near the copy engines'
    // rate, ~75 ms per line for both sizes on H100 (~1.5 s, a few % of the run), and the effects sought are ~1%.
    Variant tpb = base, grid = base;
    tpb.tiles_per_block = 4;                                 // 2 x 16 KiB, wait 0, grid tiles / 4 (= hwcomm-new)
    grid.stages = 3, grid.wait = 1, grid.blocks_per_sm = 1;  // 3 x 16 KiB, wait 1, grid SMs x 1
    for (Variant shape : {tpb, grid}) {
        shape.knob = "control";
        v.push_back(shape);
        for (int i = 0; i < kHintLineCount; ++i) {
            Variant x = shape;
            x.knob = kHintLines[i].knob, x.hint = i;
            v.push_back(x);
        }
    }
    // Round 2 (kHintLines2): 18 lines per size, ~1.4 s on H100 at the same ~75 ms a line for both sizes.
    for (int i = 0; i < kHintLine2Count; ++i) {
        const HintLine2& h = kHintLines2[i];
        Variant x = base;
        x.knob = h.knob, x.hint2 = i;
        x.stages = h.stages, x.tile = uint32_t(h.tile_kib) << 10, x.tiles_per_block = h.tiles_per_block;
        v.push_back(x);
    }
    return v;
}

struct Options {
    int device = 0;
    std::vector<size_t> sizes{size_t(512) << 20, size_t(1) << 30};
    int trials = 7, reps = 8;
    bool sweep = true;
};

struct Line {
    Variant v;
    int grid = 0, resident = 0;
    Stats st;
    double ratio = 0;
    std::string verified;
};

void print(const char* tag, size_t bytes, const Line& l) {
    const Variant& v = l.v;
    std::printf("%-5s %5zu %-12s %6d %6u %9d %11d %4d %-6s %-6s %6d %8d %9.1f %9.1f %6.3f  %s\n", tag, bytes >> 20,
                v.knob.c_str(), v.stages, v.tile >> 10, v.tiles_per_block ? 0 : v.blocks_per_sm, v.tiles_per_block,
                v.wait, v.split ? "split" : "one", v.contiguous ? "range" : "inter", l.grid, l.resident, l.st.median,
                l.st.best, l.ratio, l.verified.c_str());
}

void run_size(const Options& o, size_t bytes, int sms, cudaStream_t s) {
    void *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMalloc(&dst, bytes));
    unsigned long long seed = 0x5eed;
    auto ce = [&] {
        fill<<<264, 512, 0, s>>>((unsigned long long*)src, bytes / 8, ++seed);
        CHECK(cudaMemsetAsync(dst, 0, bytes, s));
        const Stats st = time_trials(o, s, double(bytes),
                                     [&] { CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s)); });
        return std::make_pair(st, verify(dst, bytes, seed, s));
    };
    const auto [ce_before, ce_ok] = ce();
    std::printf("\n%-5s %5s %-12s %6s %6s %9s %11s %4s %-6s %-6s %6s %8s %9s %9s %6s  %s\n", "test", "MiB", "knob",
                "stages", "tileK", "blocks/SM", "tiles/block", "wait", "issue", "layout", "grid", "res/SM", "median",
                "best", "xCE", "verified");
    std::printf("%-5s %5zu %-12s %6s %6s %9s %11s %4s %-6s %-6s %6s %8s %9.1f %9.1f %6.3f  %s\n", "local", bytes >> 20,
                "CE memcpy", "-", "-", "-", "-", "-", "-", "-", "-", "-", ce_before.median, ce_before.best, 1.0,
                ce_ok.c_str());
    std::vector<Line> lines;
    for (const Variant& v : variants(o.sweep)) {
        Line l{v};
        const size_t bulk = bytes / 16 * 16;
        const size_t tiles = (bulk + v.tile - 1) / v.tile;
        const size_t shmem = v.verbatim == 1 ? 0 : size_t(v.stages) * v.tile;
        const Kernel k = v.verbatim    ? nullptr
                         : v.hint >= 0  ? pick_hint(v.stages, v.wait, v.hint)
                         : v.hint2 >= 0 ? pick_hint2(v.hint2)
                                        : pick(v.stages, v.wait, v.split);
        const int threads = v.split ? 64 : 32;
        if (v.verbatim == 1) {
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&l.resident, hwcomm_kernel, 32, 0));
        } else if (v.verbatim == 2) {
            CHECK(cudaFuncSetAttribute(hwcomm_new_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&l.resident, hwcomm_new_kernel, 32, shmem));
        } else {
            if (!k) continue;
            CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shmem)));
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&l.resident, k, threads, shmem));
        }
        if (l.resident == 0) continue;  // does not fit one SM
        l.grid = int(v.tiles_per_block ? (tiles + v.tiles_per_block - 1) / v.tiles_per_block
                                       : std::min<size_t>(tiles, size_t(sms) * (v.verbatim == 1 ? kHwBlocksPerSm
                                                                                         : v.blocks_per_sm)));
        l.resident = std::min(l.resident, v.tiles_per_block ? l.resident : v.blocks_per_sm);
        fill<<<264, 512, 0, s>>>((unsigned long long*)src, bytes / 8, ++seed);
        CHECK(cudaMemsetAsync(dst, 0, bytes, s));
        auto* d = static_cast<unsigned char*>(dst);
        auto* c = static_cast<const unsigned char*>(src);
        l.st = time_trials(o, s, double(bytes), [&] {
            if (v.verbatim == 1) hwcomm_kernel<<<l.grid, 32, 0, s>>>(d, c, bulk, bytes);
            else if (v.verbatim == 2) hwcomm_new_kernel<<<l.grid, 32, shmem, s>>>(d, c, bulk, bytes);
            else k<<<l.grid, threads, shmem, s>>>(d, c, bulk, v.tile, v.contiguous);
        });
        l.ratio = l.st.median / ce_before.median;
        l.verified = verify(dst, bytes, seed, s);
        print("local", bytes, l);
        lines.push_back(l);
    }
    const auto [ce_after, ce_ok2] = ce();
    std::printf("%-5s %5zu %-12s %6s %6s %9s %11s %4s %-6s %-6s %6s %8s %9.1f %9.1f %6.3f  %s   (again, drift check)\n",
                "local", bytes >> 20, "CE memcpy", "-", "-", "-", "-", "-", "-", "-", "-", "-", ce_after.median,
                ce_after.best, ce_after.median / ce_before.median, ce_ok2.c_str());
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.st.median > b.st.median; });
    std::printf("best 12 verified at %zu MiB (xCE against the first CE line):\n", bytes >> 20);
    int shown = 0;
    for (const Line& l : lines)
        if (l.verified == "yes" && shown++ < 12) print("best", bytes, l);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
}

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive a timeout
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--device") o.device = std::atoi(argv[i + 1]);
        else if (k == "--mib") o.sizes = {size_t(std::atoll(argv[i + 1])) << 20};
        else if (k == "--trials") o.trials = std::atoi(argv[i + 1]);
        else if (k == "--reps") o.reps = std::atoi(argv[i + 1]);
        else if (k == "--sweep") o.sweep = std::atoi(argv[i + 1]) != 0;
        else {
            std::fprintf(stderr, "tma_probe: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    const cudaDeviceProp prop = use_device(o.device);
    std::printf("tma_probe: %s, %d SMs, %zu KiB shared memory per SM, device %d, %d trials x %d copies "
                "(median and best GB/s, bytes copied once per copy)\n",
                prop.name, prop.multiProcessorCount, prop.sharedMemPerMultiprocessor >> 10, o.device, o.trials, o.reps);
    if (!has_bulk_copy(prop, "tma_probe")) return 2;
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (size_t bytes : o.sizes) run_size(o, bytes, prop.multiProcessorCount, s);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
