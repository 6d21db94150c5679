#pragma once
// Splits n items over threads for untimed work around samples (pattern fills
// and checks): short-lived threads started and ended with the call (no
// OpenMP pool left spinning beside a timed GPU copy), or a team that already
// exists and runs the timed batches too (a CPU method's bound workers).
#include <algorithm>
#include <cstddef>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace hwcomm {

// Threads that are already there: run(body) calls body(chunk) once for every
// chunk in [0, chunks), each on its own thread, and returns when all have.
// A CPU method's session hands its bound OpenMP workers: on a 16-core guest,
// 16 fresh threads per fill and per check cost ~3.3 ms a sample (beside a
// pool that spins after each timed batch), most of a point's time from 4 MiB
// to 64 MiB (docs/benchmarks.md, fourteenth session).
struct ChunkTeam {
    unsigned chunks = 1;
    std::function<void(const std::function<void(unsigned chunk)>&)> run;
};

// Chunks for_each_chunk uses, to size per-chunk results beforehand.
inline unsigned chunk_count(bool parallel, const ChunkTeam* team = nullptr) {
    if (!parallel) return 1u;
    if (team && team->run) return std::max(1u, team->chunks);
    return std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
}

// Calls work(begin, end) or work(begin, end, chunk) over [0, n): on the
// calling thread alone, or when `parallel`, on chunk_count(true, team)
// threads, one chunk each (chunk = 0, 1, ...): the team's, else short-lived
// ones. work must not throw.
template <class Work>
void for_each_chunk(std::size_t n, bool parallel, Work&& work, const ChunkTeam* team = nullptr) {
    auto run = [&work](std::size_t begin, std::size_t end, unsigned chunk) {
        if constexpr (std::is_invocable_v<Work&, std::size_t, std::size_t, unsigned>) work(begin, end, chunk);
        else work(begin, end);
    };
    const unsigned threads = chunk_count(parallel, team);
    if (threads == 1) {
        run(std::size_t{0}, n, 0u);
        return;
    }
    if (parallel && team && team->run) {
        team->run([&run, n, threads](unsigned t) { run(n * t / threads, n * (t + 1) / threads, t); });
        return;
    }
    std::vector<std::thread> team_threads;
    team_threads.reserve(threads);
    for (unsigned t = 0; t < threads; ++t)
        team_threads.emplace_back([&run, n, t, threads] { run(n * t / threads, n * (t + 1) / threads, t); });
    for (auto& th : team_threads) th.join();
}

// The smallest i in [0, n) with fails(i), else n: the checks after a sample,
// spread as for_each_chunk spreads them. Each chunk stops at its own first
// failure; the smallest of those is the answer. fails must not throw.
template <class Fails>
std::size_t first_failing(std::size_t n, bool parallel, Fails&& fails, const ChunkTeam* team = nullptr) {
    std::vector<std::size_t> firsts(chunk_count(parallel, team), n);
    for_each_chunk(n, parallel, [&](std::size_t begin, std::size_t end, unsigned chunk) {
        for (std::size_t i = begin; i < end; ++i)
            if (fails(i)) {
                firsts[chunk] = i;
                return;
            }
    }, team);
    return *std::min_element(firsts.begin(), firsts.end());
}

}  // namespace hwcomm
