#pragma once
// Splits n items over a few short-lived threads for untimed work around
// samples (pattern fills and checks). The threads end with the call: no
// OpenMP pool left spinning beside the next timed batch.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <type_traits>
#include <vector>

namespace hwcomm {

// Chunks for_each_chunk uses, to size per-chunk results beforehand.
inline unsigned chunk_count(bool parallel) {
    return parallel ? std::max(1u, std::min(16u, std::thread::hardware_concurrency())) : 1u;
}

// Calls work(begin, end) or work(begin, end, chunk) over [0, n): on the
// calling thread alone, or when `parallel`, on chunk_count(true) threads, one
// chunk each (chunk = 0, 1, ...). work must not throw.
template <class Work>
void for_each_chunk(std::size_t n, bool parallel, Work&& work) {
    auto run = [&work](std::size_t begin, std::size_t end, unsigned chunk) {
        if constexpr (std::is_invocable_v<Work&, std::size_t, std::size_t, unsigned>) work(begin, end, chunk);
        else work(begin, end);
    };
    const unsigned threads = chunk_count(parallel);
    if (threads == 1) {
        run(std::size_t{0}, n, 0u);
        return;
    }
    std::vector<std::thread> team;
    team.reserve(threads);
    for (unsigned t = 0; t < threads; ++t)
        team.emplace_back([&run, n, t, threads] { run(n * t / threads, n * (t + 1) / threads, t); });
    for (auto& th : team) th.join();
}

}  // namespace hwcomm
