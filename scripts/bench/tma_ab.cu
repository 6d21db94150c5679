// A/B probe for issue 22's last TMA gap: hwcomm's own bulk-copy launcher
// (src/methods/cuda/common/tma_kernels.cu, linked in, not a copy) against the
// copy engines (cudaMemcpyAsync) within one GPU, interleaved: every round
// times one trial of each contender, in an order rotated round by round, so a
// clock or memory drift while the probe runs (the CE lines of tma_probe.cu
// moved 5-8% between its first and last line at 64-128 MiB) falls on all of
// them alike, and each round gives a ratio of neighbours. Contenders: CE,
// hwcomm's two local variants (kTmaLocalPlain, kTmaLocalHinted: a local
// tma-copy-d2d keeps the faster at each size), and neighbouring shapes ("TMA
// T/R": T tiles a block, at most R blocks resident per SM, none: as many as
// their shared memory lets fit), each without and with the L2 hints; "TMA 2"
// is the local shape before this probe's first calls. An earlier version found blocks of 2, 4 or 8 contiguous tiles
// (block b copying one range) no faster than interleaved ones (2 within 0.5%,
// 4 and 8 2-7% slower; nvidia-h200, docs/benchmarks.md "Twenty-first session"). The destination can start at an offset
// from its allocation (--offsets-kib): whether where dst lies against src in
// the DRAM's channels and banks is what costs the kernel at 128-256 MiB.
// Built by scripts/device-tma-ab.sh:
//   nvcc -O3 -std=c++17 -arch=sm_90 -I src -o tma_ab scripts/bench/tma_ab.cu \
//        src/methods/cuda/common/{tma_kernels.cu,cuda_check.cpp,cuda_error_text.cpp}
//   ./tma_ab [--device N] [--mib 64,128,256,512,1024] [--rounds 15] [--reps 10] [--offsets-kib 0,16,1028]
// Per size and offset, per contender: median, lowest and highest GB/s over the
// rounds (GB/s = 1e9 B/s, bytes copied once per copy), the median over rounds
// of its ratio to that round's CE trial, and whether dst held src after it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "methods/cuda/common/tma_kernels.hpp"
#include "probe_common.cuh"  // CHECK, fill and verify

namespace {

struct Options {
    int device = 0;
    std::vector<std::size_t> mib{64, 128, 256, 512, 1024};
    std::vector<std::size_t> offsets_kib{0, 16, 1028};
    int rounds = 15, reps = 10;
};

std::vector<std::size_t> list_of(const char* text) {
    std::vector<std::size_t> out;
    for (const char* p = text; *p;) {
        char* end = nullptr;
        out.push_back(std::strtoull(p, &end, 10));
        if (end == p) break;
        p = *end == ',' ? end + 1 : end;
    }
    return out;
}

struct Contender {
    std::string name;
    bool ce = false;
    hwcomm::cuda::TmaCopyShape shape;
};

std::vector<Contender> contenders() {
    std::vector<Contender> c{{"CE memcpy", true, {}}};
    c.push_back({"local plain", false, hwcomm::cuda::kTmaLocalPlain});  // hwcomm's two local variants
    c.push_back({"local hinted", false, hwcomm::cuda::kTmaLocalHinted});
    auto add = [&](int tpb, int resident) {
        for (bool hints : {false, true})
            c.push_back({"TMA " + std::to_string(tpb) + (resident ? "/" + std::to_string(resident) : "") +
                             (hints ? " hinted" : " plain"),
                         false, {hints, tpb, resident}});
    };
    add(2, 0);  // the local shape before 1 tile / 3 resident: 2 tiles a block, as many resident as fit (6)
    add(1, 4);
    add(2, 2);
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void run(const Options& o, std::size_t bytes, std::size_t offset, cudaStream_t s) {
    void *src = nullptr, *dst_alloc = nullptr;
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMalloc(&dst_alloc, bytes + offset));
    auto* dst = static_cast<std::byte*>(dst_alloc) + offset;
    const auto* from = static_cast<const std::byte*>(src);
    const unsigned long long seed = 0x5eed + bytes + offset;
    fill<<<264, 512, 0, s>>>(static_cast<unsigned long long*>(src), bytes / 8, seed);
    const std::vector<Contender> all = contenders();
    auto copy = [&](const Contender& c) {
        if (c.ce) CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
        else hwcomm::cuda::launch_tma_copy(s, dst, from, bytes, c.shape);
    };
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    auto trial = [&](const Contender& c) {
        CHECK(cudaEventRecord(a, s));
        for (int r = 0; r < o.reps; ++r) copy(c);
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        return double(bytes) * o.reps / (ms * 1e-3) / 1e9;
    };
    for (const Contender& c : all) copy(c);  // warm-up: first launches, the L2 policy objects
    CHECK(cudaStreamSynchronize(s));
    std::vector<std::vector<double>> gbps(all.size());
    for (int round = 0; round < o.rounds; ++round)
        for (std::size_t k = 0; k < all.size(); ++k) {
            const std::size_t i = (k + std::size_t(round)) % all.size();
            gbps[i].push_back(trial(all[i]));
        }
    std::printf("\n%5zu MiB, dst at +%zu KiB: %d rounds x %d copies\n", bytes >> 20, offset >> 10, o.rounds, o.reps);
    std::printf("  %-14s %9s %9s %9s %8s  %s\n", "contender", "median", "lowest", "highest", "xCE", "verified");
    for (std::size_t i = 0; i < all.size(); ++i) {
        std::vector<double> ratio;
        for (int r = 0; r < o.rounds; ++r) ratio.push_back(gbps[i][r] / gbps[0][r]);
        CHECK(cudaMemsetAsync(dst, 0, bytes, s));
        copy(all[i]);
        const std::string ok = verify(dst, bytes, seed, s);
        std::printf("  %-14s %9.1f %9.1f %9.1f %8.4f  %s\n", all[i].name.c_str(), median(gbps[i]),
                    *std::min_element(gbps[i].begin(), gbps[i].end()),
                    *std::max_element(gbps[i].begin(), gbps[i].end()), median(ratio), ok.c_str());
    }
    // hwcomm's local copy: the faster of its two variants, by their medians.
    auto at = [&](const char* name) {
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].name == name) return median(gbps[i]);
        return 0.0;
    };
    const double best2 = std::max(at("local plain"), at("local hinted"));
    const std::size_t half = std::size_t(o.rounds) / 2;
    const std::vector<double> first(gbps[0].begin(), gbps[0].begin() + half), last(gbps[0].end() - half, gbps[0].end());
    std::printf("  hwcomm's local copy (faster of local plain/hinted) / CE = %.4f; CE first/last half %.1f / %.1f\n",
                best2 / median(gbps[0]), median(first), median(last));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst_alloc));
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive a timeout
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--device") o.device = std::atoi(argv[i + 1]);
        else if (k == "--mib") o.mib = list_of(argv[i + 1]);
        else if (k == "--offsets-kib") o.offsets_kib = list_of(argv[i + 1]);
        else if (k == "--rounds") o.rounds = std::max(2, std::atoi(argv[i + 1]));
        else if (k == "--reps") o.reps = std::max(1, std::atoi(argv[i + 1]));
        else {
            std::fprintf(stderr, "tma_ab: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    const cudaDeviceProp prop = use_device(o.device);
    std::printf("tma_ab: %s, %d SMs, L2 %d MiB, device %d\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20, o.device);
    if (!has_bulk_copy(prop, "tma_ab")) return 2;
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    try {
        for (std::size_t mib : o.mib)
            for (std::size_t kib : o.offsets_kib) run(o, mib << 20, kib << 10, s);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tma_ab: %s\n", e.what());
        return 1;
    }
    CHECK(cudaStreamDestroy(s));
    return 0;
}
