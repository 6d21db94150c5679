// What the standalone probes of scripts/bench share (each is still built alone:
// nvcc finds this header beside it): a checked CUDA call that ends the probe,
// the event-timed trials of a copy, and the pattern every copy is verified by.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                                  \
    do {                                                                                             \
        cudaError_t e_ = (call);                                                                     \
        if (e_ != cudaSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

// Every probe starts so: `device` current, its properties.
inline cudaDeviceProp use_device(int device) {
    CHECK(cudaSetDevice(device));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, device));
    return prop;
}
// Whether `prop`'s GPU has the bulk-copy unit (TMA, sm_90 and newer); if not, says so for `probe` on stderr.
inline bool has_bulk_copy(const cudaDeviceProp& prop, const char* probe) {
    if (prop.major >= 9) return true;
    std::fprintf(stderr, "%s: needs sm_90 or newer, device is sm_%d%d\n", probe, prop.major, prop.minor);
    return false;
}

struct Stats {
    double median = 0, best = 0;
};
inline Stats stats_of(std::vector<double> gbps) {
    std::sort(gbps.begin(), gbps.end());
    return {gbps[gbps.size() / 2], gbps.back()};
}

// GB/s of `o.reps` launches of `work` per trial, `o.trials` trials, timed by events on `s`.
template <class Options, class Work>
Stats time_trials(const Options& o, cudaStream_t s, double bytes_per_rep, Work work) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    work();  // warm-up
    CHECK(cudaStreamSynchronize(s));
    std::vector<double> gbps;
    for (int t = 0; t < o.trials; ++t) {
        CHECK(cudaEventRecord(a, s));
        for (int r = 0; r < o.reps; ++r) work();
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        gbps.push_back(bytes_per_rep * o.reps / (ms * 1e-3) / 1e9);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return stats_of(gbps);
}

__global__ void fill(unsigned long long* p, size_t n, unsigned long long seed) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = (i * 0x9e3779b97f4a7c15ull) ^ seed;
}
__global__ void count_wrong(const unsigned long long* p, size_t n, unsigned long long seed, unsigned long long* wrong) {
    unsigned long long w = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        w += p[i] != ((i * 0x9e3779b97f4a7c15ull) ^ seed);
    if (w) atomicAdd(wrong, w);
}

// "yes" when every word of dst (device pointer or mapped host) holds the
// pattern of `seed`, else "NO(count words)" (scripts/device-tma-probe.sh greps it).
inline std::string verify(const void* dst, size_t bytes, unsigned long long seed, cudaStream_t s) {
    unsigned long long* wrong;
    CHECK(cudaMallocManaged(&wrong, sizeof *wrong));
    *wrong = 0;
    count_wrong<<<264, 512, 0, s>>>((const unsigned long long*)dst, bytes / 8, seed, wrong);
    CHECK(cudaStreamSynchronize(s));
    const unsigned long long w = *wrong;
    CHECK(cudaFree(wrong));
    return w == 0 ? "yes" : "NO(" + std::to_string(w) + " words)";
}
