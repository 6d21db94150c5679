#pragma once
// Runs a body on N OpenMP worker threads, worker i bound to the PU of slot i
// (one physical core each, see core_slots_of_numa), and times `reps`
// back-to-back executions between two clock reads taken after every worker
// is bound and before any binding is restored.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "platform/hwloc_topology.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

// One worker's partial sum on its own cache line (no false sharing between workers).
struct alignas(64) PaddedSum {
    std::uint64_t value = 0;
};

struct BoundRun {
    double seconds = 0;
    unsigned unbound_workers = 0;  // workers whose binding failed
    std::string note;              // the last binding failure, if any
    std::vector<int> ran_on_pus;   // per worker: the PU it was on after the batch (-1 unknown)
};

// body(rank, workers) must not throw. Throws MeasurementError when OpenMP
// gives fewer threads than slots.
BoundRun run_bound_parallel(const HwlocTopology& topo, std::span<const CoreSlot> slots, std::size_t reps,
                            const std::function<void(unsigned rank, unsigned workers)>& body);

// Half-open element range [begin, end) of `rank` among `workers` for n items.
inline std::pair<std::size_t, std::size_t> chunk_of(std::size_t n, unsigned rank, unsigned workers) {
    return {n * rank / workers, n * (rank + 1) / workers};
}

// Byte range [begin, end) of `rank` among `workers` over `bytes`, cut on
// 64-byte lines so that no two workers share a cache line and every chunk
// starts aligned in a page-aligned buffer.
inline std::pair<std::size_t, std::size_t> line_chunk(std::size_t bytes, unsigned rank, unsigned workers) {
    const std::size_t lines = (bytes + 63) / 64;
    const auto [b, e] = chunk_of(lines, rank, workers);
    return {std::min(bytes, b * 64), std::min(bytes, e * 64)};
}

// Keeps the compiler from merging or hoisting repeated passes over memory.
inline void compiler_memory_barrier() { asm volatile("" ::: "memory"); }

}  // namespace hwcomm
