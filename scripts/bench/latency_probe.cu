// Probe for issue 22 item 2: why hwcomm's pointer-chase latency reads +1%
// (host) to +3.5% (GPU to GPU) above nvbandwidth's, every variant of the chase
// timed side by side in one process. Not part of hwcomm; built here with nvcc,
// run by scripts/device-gpu-probe.sh:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o latency_probe scripts/bench/latency_probe.cu
//   ./latency_probe [--device N] [--peer M] [--mib 512] [--hops 100000] [--per-sm 1]
// --per-sm 1: instead of the table, the ring and random chases of pointer
// nodes from every SM in turn (globaltimer inside the kernel): the spread of
// the latency over the SM that chases, beside one <<<1,1>>> chase's SM.
// One line per (memory, variant): ns per dependent load.
// Knobs: node layout (nvbandwidth's ring: the next node 128 bytes on, so pages
// are walked in order; hwcomm's random cycle over 128-byte lines; random lines
// within each 2 MiB page, pages in order; a 4 KiB stride), the node form (a
// pointer, p = *p, or an index, p = buf[p]: one more multiply-add per hop), the
// clock (events around the launch divided by hops, as nvbandwidth; the
// globaltimer or clock64 read inside the kernel around the loop, as hwcomm),
// the per-hop overhead (the slope between H and 2H hops removes the launch and
// the fixed cost), and nvbandwidth's launch (one block per SM, only one chasing,
// 1M loads split over the SMs, summed).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "probe_common.cuh"  // CHECK

__device__ __forceinline__ unsigned long long globaltimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct Timing {
    unsigned long long ns = 0, cycles = 0, last = 0;
};

// p = *p: the node holds the address of the next node.
__global__ void chase_pointer(unsigned long long start, unsigned long long hops, int target_block, Timing* out) {
    if (int(blockIdx.x) != target_block) return;
    auto p = reinterpret_cast<const unsigned long long*>(start);
    const unsigned long long g0 = globaltimer(), c0 = clock64();
    for (unsigned long long i = 0; i < hops; ++i) p = reinterpret_cast<const unsigned long long*>(*p);
    const unsigned long long c1 = clock64(), g1 = globaltimer();
    out->ns += g1 - g0;
    out->cycles += c1 - c0;
    out->last = reinterpret_cast<unsigned long long>(p);
}

// p = buf[p]: the node holds the word index of the next node (hwcomm's gpumem chase).
__global__ void chase_index(const unsigned long long* buf, unsigned long long start, unsigned long long hops,
                            Timing* out) {
    unsigned long long p = start;
    const unsigned long long g0 = globaltimer(), c0 = clock64();
    for (unsigned long long i = 0; i < hops; ++i) p = buf[p];
    const unsigned long long c1 = clock64(), g1 = globaltimer();
    out->ns += g1 - g0;
    out->cycles += c1 - c0;
    out->last = p;
}

__device__ __forceinline__ unsigned sm_id() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

// One chase on the SM that block `target_block` lands on: `warm` hops to fill
// this SM's TLBs, then `hops` timed by the globaltimer inside the kernel (no
// launch in the figure). Records the SM it ran on.
__global__ void chase_on_block(unsigned long long start, unsigned long long warm, unsigned long long hops,
                               int target_block, Timing* out, unsigned* sm_out) {
    if (int(blockIdx.x) != target_block) return;
    auto p = reinterpret_cast<const unsigned long long*>(start);
    for (unsigned long long i = 0; i < warm; ++i) p = reinterpret_cast<const unsigned long long*>(*p);
    const unsigned long long g0 = globaltimer();
    for (unsigned long long i = 0; i < hops; ++i) p = reinterpret_cast<const unsigned long long*>(*p);
    const unsigned long long g1 = globaltimer();
    out->ns = g1 - g0;
    out->last = reinterpret_cast<unsigned long long>(p);
    *sm_out = sm_id();
}

enum class Layout { Ring128, RandomLines, RandomInPage, Stride4K };
const char* name_of(Layout l) {
    switch (l) {
        case Layout::Ring128: return "ring-128B";
        case Layout::RandomLines: return "random-lines";
        case Layout::RandomInPage: return "random-in-2MiB";
        case Layout::Stride4K: return "stride-4KiB";
    }
    return "?";
}

// The order in which the chase visits 128-byte lines (a single cycle over `lines`).
std::vector<uint64_t> visit_order(Layout l, uint64_t lines) {
    std::vector<uint64_t> order(lines);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(42);
    if (l == Layout::RandomLines) std::shuffle(order.begin(), order.end(), rng);
    if (l == Layout::RandomInPage) {
        const uint64_t per_page = (2u << 20) / 128;
        for (uint64_t p = 0; p < lines; p += per_page)
            std::shuffle(order.begin() + p, order.begin() + std::min(lines, p + per_page), rng);
    }
    if (l == Layout::Stride4K) {
        const uint64_t per = 4096 / 128, groups = lines / per;
        order.clear();
        for (uint64_t k = 0; k < per; ++k)
            for (uint64_t g = 0; g < groups; ++g) order.push_back(g * per + k);
    }
    return order;
}

// Writes the cycle into `mem` (device memory or mapped host memory, `words` 8-byte words) as pointers or indexes.
void lay_out(void* mem, uint64_t bytes, Layout l, bool pointers, uint64_t* first_word) {
    const uint64_t lines = bytes / 128, per = 16;
    const auto order = visit_order(l, lines);
    std::vector<unsigned long long> image(bytes / 8, 0);
    const auto base = reinterpret_cast<unsigned long long>(mem);
    for (uint64_t k = 0; k < lines; ++k) {
        const uint64_t from = order[k] * per, to = order[(k + 1) % lines] * per;
        image[from] = pointers ? base + to * 8 : to;
    }
    CHECK(cudaMemcpy(mem, image.data(), bytes, cudaMemcpyDefault));
    *first_word = order[0] * per;
}

struct Memory {
    std::string name;
    void* ptr;
};

struct Probe {
    int device = 0, sms = 0, clock_khz = 0;
    cudaStream_t stream{};
    Timing* out = nullptr;
    cudaEvent_t a{}, b{};

    // ns per hop: events/hops, globaltimer/hops, clock64/hops at the SM clock.
    struct Result {
        double events_ns, timer_ns, clock_ns;
    };
    template <class Launch>
    Result time(unsigned long long hops, Launch launch) {
        CHECK(cudaMemsetAsync(out, 0, sizeof *out, stream));
        CHECK(cudaEventRecord(a, stream));
        launch();
        CHECK(cudaEventRecord(b, stream));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaGetLastError());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        Timing t{};
        CHECK(cudaMemcpy(&t, out, sizeof t, cudaMemcpyDeviceToHost));
        const double h = double(hops);
        return {ms * 1e6 / h, double(t.ns) / h, double(t.cycles) / (clock_khz * 1e-6) / h};
    }
};

void row(const char* mem, const char* layout, const char* form, const char* how, const Probe::Result& r) {
    std::printf("%-8s %-15s %-8s %-26s %10.1f %10.1f %10.1f\n", mem, layout, form, how, r.events_ns, r.timer_ns,
                r.clock_ns);
}

int main(int argc, char** argv) {
    int device = 0, peer = -1;
    uint64_t bytes = uint64_t(512) << 20, hops = 100000;
    bool per_sm = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--device") device = std::atoi(argv[i + 1]);
        else if (k == "--peer") peer = std::atoi(argv[i + 1]);
        else if (k == "--mib") bytes = uint64_t(std::atoll(argv[i + 1])) << 20;
        else if (k == "--hops") hops = std::strtoull(argv[i + 1], nullptr, 10);
        else if (k == "--per-sm") per_sm = std::atoi(argv[i + 1]) != 0;
        else {
            std::fprintf(stderr, "latency_probe: unknown option %s\n", k.c_str());
            return 2;
        }
    }
    Probe p;
    p.device = device;
    const cudaDeviceProp prop = use_device(device);
    p.sms = prop.multiProcessorCount;
    CHECK(cudaDeviceGetAttribute(&p.clock_khz, cudaDevAttrClockRate, device));
    CHECK(cudaStreamCreateWithFlags(&p.stream, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&p.out, sizeof(Timing)));
    CHECK(cudaEventCreate(&p.a));
    CHECK(cudaEventCreate(&p.b));
    std::printf("latency_probe: %s, %d SMs at %d MHz (attribute), device %d, %llu MiB, %llu hops\n", prop.name, p.sms,
                p.clock_khz / 1000, device, (unsigned long long)(bytes >> 20), (unsigned long long)hops);

    std::vector<Memory> mems;
    void* local = nullptr;
    CHECK(cudaMalloc(&local, bytes));
    mems.push_back({"local", local});
    void* host = nullptr;
    CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocPortable | cudaHostAllocMapped));
    mems.push_back({"host", host});
    void* remote = nullptr;
    if (peer >= 0) {
        int can = 0;
        CHECK(cudaDeviceCanAccessPeer(&can, device, peer));
        if (can) {
            CHECK(cudaDeviceEnablePeerAccess(peer, 0));
            CHECK(cudaSetDevice(peer));
            CHECK(cudaMalloc(&remote, bytes));
            CHECK(cudaSetDevice(device));
            mems.push_back({"peer", remote});
        } else {
            std::printf("device %d cannot access device %d: no peer rows\n", device, peer);
        }
    }

    if (per_sm) {
        // The chase from every SM in turn (block k of a grid of one block per
        // SM; the SM it landed on recorded): does the chasing SM move the
        // latency, and by how much against one <<<1,1>>> chase?
        unsigned* sm_out = nullptr;
        CHECK(cudaMalloc(&sm_out, sizeof(unsigned)));
        const unsigned long long timed = hops, warm = 512;
        for (const Memory& m : mems) {
            for (Layout l : {Layout::Ring128, Layout::RandomLines}) {
                uint64_t first = 0;
                lay_out(m.ptr, bytes, l, true, &first);
                const auto start = reinterpret_cast<unsigned long long>(m.ptr) + first * 8;
                // One pass over the whole cycle first, so every footprint that fits the owner's L2 sits there.
                const unsigned long long lines = bytes / 128;
                p.time(lines, [&] { chase_pointer<<<1, 1, 0, p.stream>>>(start, lines, 0, p.out); });
                std::vector<std::pair<unsigned, double>> per;  // (SM, ns per hop)
                for (int k = 0; k < p.sms; ++k) {
                    CHECK(cudaMemsetAsync(p.out, 0, sizeof(Timing), p.stream));
                    chase_on_block<<<p.sms, 1, 0, p.stream>>>(start, warm, timed, k, p.out, sm_out);
                    CHECK(cudaStreamSynchronize(p.stream));
                    CHECK(cudaGetLastError());
                    Timing t{};
                    unsigned sm = 0;
                    CHECK(cudaMemcpy(&t, p.out, sizeof t, cudaMemcpyDeviceToHost));
                    CHECK(cudaMemcpy(&sm, sm_out, sizeof sm, cudaMemcpyDeviceToHost));
                    per.push_back({sm, double(t.ns) / double(timed)});
                }
                std::vector<double> v;
                for (const auto& e : per) v.push_back(e.second);
                std::sort(v.begin(), v.end());
                const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
                double on_sm0 = -1, block0 = per.front().second;
                for (const auto& e : per)
                    if (e.first == 0) on_sm0 = e.second;
                std::printf("per-SM %-6s %-13s %llu MiB: min %.1f  p10 %.1f  median %.1f  mean %.1f  p90 %.1f  max %.1f ns;"
                            " block 0 (SM %u) %.1f, SM 0 %.1f\n",
                            m.name.c_str(), name_of(l), (unsigned long long)(bytes >> 20), v.front(),
                            v[v.size() / 10], v[v.size() / 2], mean, v[v.size() * 9 / 10], v.back(), per.front().first,
                            block0, on_sm0);
                std::sort(per.begin(), per.end());
                std::printf("  by SM:");
                for (const auto& e : per) std::printf(" %u:%.0f", e.first, e.second);
                std::printf("\n");
            }
        }
        CHECK(cudaFree(sm_out));
        CHECK(cudaFree(local));
        CHECK(cudaFreeHost(host));
        if (remote) CHECK(cudaFree(remote));
        return 0;
    }

    std::printf("\n%-8s %-15s %-8s %-26s %10s %10s %10s\n", "memory", "layout", "node", "launch", "events ns",
                "timer ns", "clock64 ns");
    for (const Memory& m : mems) {
        for (Layout l : {Layout::Ring128, Layout::RandomLines, Layout::RandomInPage, Layout::Stride4K}) {
            for (bool pointers : {true, false}) {
                uint64_t first = 0;
                lay_out(m.ptr, bytes, l, pointers, &first);
                const auto base = reinterpret_cast<unsigned long long>(m.ptr);
                auto one = [&](unsigned long long n) {
                    return p.time(n, [&] {
                        if (pointers) chase_pointer<<<1, 1, 0, p.stream>>>(base + first * 8, n, 0, p.out);
                        else chase_index<<<1, 1, 0, p.stream>>>((const unsigned long long*)m.ptr, first, n, p.out);
                    });
                };
                one(hops / 10);  // warm-up: TLB, clocks
                const auto single = one(hops);
                const auto twice = one(2 * hops);
                // The slope: (time of 2H - time of H) / H, launch and fixed cost removed.
                const Probe::Result slope{(twice.events_ns * 2 - single.events_ns),
                                          (twice.timer_ns * 2 - single.timer_ns), (twice.clock_ns * 2 - single.clock_ns)};
                const char* form = pointers ? "pointer" : "index";
                row(m.name.c_str(), name_of(l), form, "<<<1,1>>> H hops", single);
                row(m.name.c_str(), name_of(l), form, "<<<1,1>>> slope H..2H", slope);
                if (pointers && l == Layout::Ring128) {
                    // nvbandwidth's own launch: one block per SM, only block k chases, 1M loads over all SMs, summed.
                    const unsigned long long per_sm = 1000000ull / p.sms;
                    double events_ms = 0;
                    for (int k = 0; k < p.sms; ++k) {
                        const auto r = p.time(per_sm, [&] {
                            chase_pointer<<<p.sms, 1, 0, p.stream>>>(base + first * 8, per_sm, k, p.out);
                        });
                        events_ms += r.events_ns * double(per_sm) * 1e-6;
                    }
                    const double ns = events_ms * 1e6 / double(per_sm * p.sms);
                    row(m.name.c_str(), name_of(l), form, "nvbandwidth: SMs x 1M/SMs", {ns, 0, 0});
                }
            }
        }
    }
    CHECK(cudaFree(local));
    CHECK(cudaFreeHost(host));
    if (remote) CHECK(cudaFree(remote));
    return 0;
}
