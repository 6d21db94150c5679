// Probe for issue 22 item 2: which shape of copy kernel moves device memory to
// pinned host memory (SM D2H) and within one GPU (device-local copy) fastest,
// every variant timed side by side in one process so ratios need no memory.
// Not part of hwcomm; built here with nvcc, run by scripts/device-gpu-probe.sh:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o copy_probe scripts/bench/copy_probe.cu
//   ./copy_probe [--device N] [--mib 512] [--trials 7] [--reps 8] [--only d2h|local]
// One line per variant: median and best GB/s over the trials (GB/s = 1e9 B/s,
// bytes copied once per copy), whether the destination held the source.
// Knobs: kernel layout (grid-stride as hwcomm, or one contiguous range per
// block), vector width of loads/stores, unrolling (loads in flight per thread
// before the stores), the store's cache operator (plain, .cs, .wt, .cg), blocks
// per SM and threads per block, the share of SMs used, and copies looped
// inside one launch (nvbandwidth loops 16 inside the kernel; hwcomm launches
// one kernel per copy). Copy-engine copies of the same buffers are the
// reference lines (cudaMemcpyAsync).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_common.cuh"  // CHECK, time_trials, fill and verify

enum Store { kPlain, kStreaming, kWriteThrough, kCacheGlobal };

template <class V, Store S>
__device__ __forceinline__ void store(V* p, const V& v) {
    if constexpr (S == kStreaming) __stcs(p, v);
    else if constexpr (S == kWriteThrough) __stwt(p, v);
    else if constexpr (S == kCacheGlobal) __stcg(p, v);
    else *p = v;
}

// hwcomm's layout: every thread strides by the whole grid; UNROLL loads in flight, then the stores.
template <class V, int UNROLL, Store S>
__global__ void grid_stride(V* dst, const V* src, size_t n, int loops) {
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (int l = 0; l < loops; ++l) {
        size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
        for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
            V v[UNROLL];
#pragma unroll
            for (int k = 0; k < UNROLL; ++k) v[k] = src[i + k * stride];
#pragma unroll
            for (int k = 0; k < UNROLL; ++k) store<V, S>(dst + i + k * stride, v[k]);
        }
        for (; i < n; i += stride) store<V, S>(dst + i, src[i]);
    }
}

// One contiguous range per block (its warps write neighbouring lines: fuller write-combining on PCIe).
template <class V, int UNROLL, Store S>
__global__ void block_range(V* dst, const V* src, size_t n, int loops) {
    const size_t per_block = (n + gridDim.x - 1) / gridDim.x;
    const size_t begin = size_t(blockIdx.x) * per_block;
    const size_t end = begin + per_block < n ? begin + per_block : n;
    const size_t stride = blockDim.x;
    for (int l = 0; l < loops; ++l) {
        size_t i = begin + threadIdx.x;
        for (; i + (UNROLL - 1) * stride < end; i += UNROLL * stride) {
            V v[UNROLL];
#pragma unroll
            for (int k = 0; k < UNROLL; ++k) v[k] = src[i + k * stride];
#pragma unroll
            for (int k = 0; k < UNROLL; ++k) store<V, S>(dst + i + k * stride, v[k]);
        }
        for (; i < end; i += stride) store<V, S>(dst + i, src[i]);
    }
}

using Launcher = void (*)(void* dst, const void* src, size_t bytes, int blocks, int threads, int loops, cudaStream_t);

template <class V, int UNROLL, Store S, bool kBlockRange>
void launch(void* dst, const void* src, size_t bytes, int blocks, int threads, int loops, cudaStream_t s) {
    const size_t n = bytes / sizeof(V);
    if (kBlockRange) block_range<V, UNROLL, S><<<blocks, threads, 0, s>>>((V*)dst, (const V*)src, n, loops);
    else grid_stride<V, UNROLL, S><<<blocks, threads, 0, s>>>((V*)dst, (const V*)src, n, loops);
}

struct Variant {
    std::string name;
    Launcher fn;
    int vec_bytes, unroll;
    const char* store;
    const char* layout;
    int blocks_per_sm, threads;
    double sm_share;  // of the GPU's SMs
    int loops;        // copies per launch
};

std::vector<Variant> variants() {
    std::vector<Variant> v;
    auto add = [&](const char* name, Launcher fn, int vec, int unroll, const char* store, const char* layout, int bps,
                   int threads, double share = 1.0, int loops = 1) {
        v.push_back({name, fn, vec, unroll, store, layout, bps, threads, share, loops});
    };
    // The two baselines: hwcomm's copy kernel and nvbandwidth's shape (1 block of 512 per SM, 12 in flight, 16 loops).
    add("hwcomm", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", 4, 512);
    add("nvbw-shape", launch<uint4, 12, kPlain, false>, 16, 12, "plain", "grid-stride", 1, 512, 1.0, 16);
    // One knob at a time around hwcomm's kernel.
    for (int bps : {1, 2}) add("blocks/SM", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", bps, 512);
    add("blocks/SM", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", 8, 256);
    for (int threads : {128, 256, 1024}) add("threads", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", 2048 / threads, threads);
    add("unroll", launch<uint4, 1, kPlain, false>, 16, 1, "plain", "grid-stride", 4, 512);
    add("unroll", launch<uint4, 2, kPlain, false>, 16, 2, "plain", "grid-stride", 4, 512);
    add("unroll", launch<uint4, 8, kPlain, false>, 16, 8, "plain", "grid-stride", 4, 512);
    add("unroll", launch<uint4, 12, kPlain, false>, 16, 12, "plain", "grid-stride", 4, 512);
    add("unroll", launch<uint4, 12, kPlain, false>, 16, 12, "plain", "grid-stride", 1, 512);
    add("unroll", launch<uint4, 16, kPlain, false>, 16, 16, "plain", "grid-stride", 1, 512);
    add("vector", launch<uint2, 4, kPlain, false>, 8, 4, "plain", "grid-stride", 4, 512);
    add("vector", launch<unsigned, 4, kPlain, false>, 4, 4, "plain", "grid-stride", 4, 512);
    add("store", launch<uint4, 4, kStreaming, false>, 16, 4, "cs", "grid-stride", 4, 512);
    add("store", launch<uint4, 4, kWriteThrough, false>, 16, 4, "wt", "grid-stride", 4, 512);
    add("store", launch<uint4, 4, kCacheGlobal, false>, 16, 4, "cg", "grid-stride", 4, 512);
    add("store", launch<uint4, 12, kStreaming, false>, 16, 12, "cs", "grid-stride", 1, 512, 1.0, 16);
    for (double share : {0.25, 0.5, 0.75}) add("SM share", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", 4, 512, share);
    add("loops", launch<uint4, 4, kPlain, false>, 16, 4, "plain", "grid-stride", 4, 512, 1.0, 16);
    add("loops", launch<uint4, 12, kPlain, false>, 16, 12, "plain", "grid-stride", 1, 512, 1.0, 1);
    add("layout", launch<uint4, 4, kPlain, true>, 16, 4, "plain", "block-range", 4, 512);
    add("layout", launch<uint4, 4, kPlain, true>, 16, 4, "plain", "block-range", 1, 512);
    add("layout", launch<uint4, 8, kStreaming, true>, 16, 8, "cs", "block-range", 2, 512);
    return v;
}

struct Options {
    int device = 0;
    size_t bytes = size_t(512) << 20;
    int trials = 7, reps = 8;
    std::string only;
};

void run(const char* test, const Options& o, void* dst, void* src, int sms, cudaStream_t s, bool to_host) {
    unsigned long long seed = 0x5eed;
    std::printf("\n%-6s %-11s %-11s %4s %6s %5s %8s %7s %5s %5s %9s %9s  %s\n", "test", "variant", "layout", "vec",
                "unroll", "store", "blocks", "threads", "SMs", "loops", "median", "best", "verified");
    {
        fill<<<264, 512, 0, s>>>((unsigned long long*)src, o.bytes / 8, ++seed);
        const Stats st = time_trials(o, s, double(o.bytes), [&] {
            CHECK(cudaMemcpyAsync(dst, src, o.bytes, to_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice, s));
        });
        std::printf("%-6s %-11s %-11s %4s %6s %5s %8s %7s %5s %5s %9.2f %9.2f  %s\n", test, "CE memcpy", "-", "-", "-", "-",
                    "-", "-", "-", "1", st.median, st.best, verify(dst, o.bytes, seed, s).c_str());
    }
    for (const Variant& v : variants()) {
        const int used = std::max(1, int(sms * v.sm_share + 0.5));
        const int blocks = used * v.blocks_per_sm;
        fill<<<264, 512, 0, s>>>((unsigned long long*)src, o.bytes / 8, ++seed);
        CHECK(cudaMemsetAsync(dst, 0, o.bytes, s));
        const Stats st = time_trials(o, s, double(o.bytes) * v.loops,
                                     [&] { v.fn(dst, src, o.bytes, blocks, v.threads, v.loops, s); });
        std::printf("%-6s %-11s %-11s %4d %6d %5s %8d %7d %5d %5d %9.2f %9.2f  %s\n", test, v.name.c_str(), v.layout,
                    v.vec_bytes, v.unroll, v.store, blocks, v.threads, used, v.loops, st.median, st.best,
                    verify(dst, o.bytes, seed, s).c_str());
    }
}

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--device") o.device = std::atoi(argv[i + 1]);
        else if (k == "--mib") o.bytes = size_t(std::atoll(argv[i + 1])) << 20;
        else if (k == "--trials") o.trials = std::atoi(argv[i + 1]);
        else if (k == "--reps") o.reps = std::atoi(argv[i + 1]);
        else if (k == "--only") o.only = argv[i + 1];
        else {
            std::fprintf(stderr, "copy_probe: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    const cudaDeviceProp prop = use_device(o.device);
    std::printf("copy_probe: %s, %d SMs, device %d, %zu MiB, %d trials x %d copies (median and best GB/s)\n", prop.name,
                prop.multiProcessorCount, o.device, o.bytes >> 20, o.trials, o.reps);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    void *src = nullptr, *dst = nullptr, *host = nullptr;
    CHECK(cudaMalloc(&src, o.bytes));
    if (o.only.empty() || o.only == "d2h") {
        CHECK(cudaHostAlloc(&host, o.bytes, cudaHostAllocPortable | cudaHostAllocMapped));
        run("d2h", o, host, src, prop.multiProcessorCount, s, true);
        CHECK(cudaFreeHost(host));
    }
    if (o.only.empty() || o.only == "local") {
        CHECK(cudaMalloc(&dst, o.bytes));
        run("local", o, dst, src, prop.multiProcessorCount, s, false);
        CHECK(cudaFree(dst));
    }
    CHECK(cudaFree(src));
    CHECK(cudaStreamDestroy(s));
    return 0;
}
