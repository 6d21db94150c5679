// Read-kernel shapes on the host's DRAM (issue 23): is cpu-read's kernel (one
// stream per worker, 8 AVX-512 accumulators, 8 lines per iteration) what
// limits it against STREAM, or the memory system? Same kernel against 2, 4
// and 8 interleaved streams per worker and software prefetch 1 or 4 KiB
// ahead, T workers bound to CPUs 0..T-1, each on its own contiguous chunk of
// a 1 GiB buffer (first-touched by its worker; HP=1 in the environment asks
// for transparent huge pages), 7 timed passes each, 3 rounds interleaved.
//   g++ -O2 -std=c++20 -pthread scripts/bench/read_shapes.cpp -o read_shapes
//   ./read_shapes [T]       (scripts/device-read-shapes.sh runs it beside STREAM)
// Prints per kernel the median and best GB/s (bytes read once / wall time,
// team start and join included, as cpu-read times them).
#include <immintrin.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using u64 = std::uint64_t;

#define AVX512 __attribute__((target("avx512f")))

AVX512 static u64 reduce(__m512i v) {
    alignas(64) u64 lanes[8];
    _mm512_store_si512(lanes, v);
    u64 t = 0;
    for (u64 x : lanes) t += x;
    return t;
}

// cpu-read's shape: 8 lines per iteration, one accumulator each.
AVX512 static u64 one_stream(const u64* p, std::size_t n) {
    __m512i a[8];
    for (auto& x : a) x = _mm512_setzero_si512();
    for (std::size_t i = 0; i + 64 <= n; i += 64)
        for (int k = 0; k < 8; ++k) a[k] = _mm512_add_epi64(a[k], _mm512_load_si512(p + i + 8 * k));
    __m512i t = _mm512_setzero_si512();
    for (auto& x : a) t = _mm512_add_epi64(t, x);
    return reduce(t);
}

// S streams: the chunk cut in S parts read side by side (more prefetcher streams).
template <int S>
AVX512 static u64 streams(const u64* p, std::size_t n) {
    const std::size_t part = n / S / 32 * 32;
    __m512i a[S][4];
    for (auto& s : a)
        for (auto& x : s) x = _mm512_setzero_si512();
    for (std::size_t i = 0; i + 32 <= part; i += 32)
        for (int s = 0; s < S; ++s)
            for (int k = 0; k < 4; ++k) a[s][k] = _mm512_add_epi64(a[s][k], _mm512_load_si512(p + s * part + i + 8 * k));
    __m512i t = _mm512_setzero_si512();
    for (auto& s : a)
        for (auto& x : s) t = _mm512_add_epi64(t, x);
    return reduce(t);
}

// One stream with software prefetch D bytes ahead.
template <int D>
AVX512 static u64 prefetched(const u64* p, std::size_t n) {
    __m512i a[4];
    for (auto& x : a) x = _mm512_setzero_si512();
    for (std::size_t i = 0; i + 32 <= n; i += 32) {
        for (int k = 0; k < 4; ++k) _mm_prefetch(reinterpret_cast<const char*>(p + i + D / 8 + 8 * k), _MM_HINT_T0);
        for (int k = 0; k < 4; ++k) a[k] = _mm512_add_epi64(a[k], _mm512_load_si512(p + i + 8 * k));
    }
    __m512i t = _mm512_setzero_si512();
    for (auto& x : a) t = _mm512_add_epi64(t, x);
    return reduce(t);
}

static void bind(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

volatile u64 sink;

int main(int argc, char** argv) {
    const std::size_t bytes = std::size_t{1} << 30, n = bytes / 8;
    const int workers = argc > 1 ? std::atoi(argv[1]) : 2;
    auto* p = static_cast<u64*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
    if (!p || workers < 1) return 2;
    if (std::getenv("HP")) madvise(p, bytes, MADV_HUGEPAGE);
    const std::size_t chunk = n / static_cast<std::size_t>(workers);
    auto team = [&](auto&& body) {
        std::vector<std::thread> t;
        for (int w = 0; w < workers; ++w) t.emplace_back([&, w] { bind(w); body(p + w * chunk, chunk); });
        for (auto& x : t) x.join();
    };
    team([](u64* q, std::size_t m) {
        for (std::size_t i = 0; i < m; ++i) q[i] = i;
    });
    struct Kernel {
        const char* name;
        u64 (*run)(const u64*, std::size_t);
    } kernels[] = {{"one-stream", one_stream}, {"2-streams", streams<2>},   {"4-streams", streams<4>},
                   {"8-streams", streams<8>},  {"prefetch-1k", prefetched<1024>}, {"prefetch-4k", prefetched<4096>}};
    for (int round = 0; round < 3; ++round)
        for (const Kernel& k : kernels) {
            std::vector<double> gbps;
            for (int pass = 0; pass < 7; ++pass) {
                const auto t0 = std::chrono::steady_clock::now();
                team([&](u64* q, std::size_t m) { sink = k.run(q, m); });
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                gbps.push_back(static_cast<double>(bytes) / s / 1e9);
            }
            std::sort(gbps.begin(), gbps.end());
            std::printf("round %d %-12s T=%d median %.1f best %.1f GB/s\n", round, k.name, workers, gbps[3], gbps[6]);
        }
    std::free(p);
}
