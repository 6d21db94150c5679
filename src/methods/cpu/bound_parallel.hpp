#pragma once
// Runs a body on N OpenMP worker threads, each bound to one NUMA node's PUs,
// and times `reps` back-to-back executions between two clock reads taken
// after every worker is bound and before any binding is restored.
#include <cstddef>
#include <functional>
#include <string>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

struct BoundRun {
    double seconds = 0;
    unsigned unbound_workers = 0;  // workers whose binding failed
    std::string note;              // the last binding failure, if any
};

// body(rank, workers) must not throw. Throws MeasurementError when OpenMP
// gives fewer threads than asked.
BoundRun run_bound_parallel(const HwlocTopology& topo, int numa_os_index, unsigned workers, std::size_t reps,
                            const std::function<void(unsigned rank, unsigned workers)>& body);

// Half-open element range [begin, end) of `rank` among `workers` for n items.
inline std::pair<std::size_t, std::size_t> chunk_of(std::size_t n, unsigned rank, unsigned workers) {
    return {n * rank / workers, n * (rank + 1) / workers};
}

// Keeps the compiler from merging or hoisting repeated passes over memory.
inline void compiler_memory_barrier() { asm volatile("" ::: "memory"); }

}  // namespace hwcomm
