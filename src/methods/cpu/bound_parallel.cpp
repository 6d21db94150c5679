#include "methods/cpu/bound_parallel.hpp"

#include <omp.h>

#include "core/error.hpp"
#include "platform/clock.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

BoundRun run_bound_parallel(const HwlocTopology& topo, int numa_os_index, unsigned workers, std::size_t reps,
                            const std::function<void(unsigned, unsigned)>& body) {
    BoundRun run;
    double t0 = 0, t1 = 0;
    int team = 0;
#pragma omp parallel num_threads(static_cast<int>(workers))
    {
        ScopedThreadBinding binding(topo, numa_os_index);
        const auto rank = static_cast<unsigned>(omp_get_thread_num());
        const auto n = static_cast<unsigned>(omp_get_num_threads());
        if (!binding.bound()) {
#pragma omp critical(hwcomm_binding_note)
            {
                ++run.unbound_workers;
                run.note = binding.note();
            }
        }
#pragma omp barrier
#pragma omp master
        {
            team = static_cast<int>(n);
            t0 = steady_seconds();
        }
#pragma omp barrier
        for (std::size_t r = 0; r < reps; ++r) {
            body(rank, n);
            compiler_memory_barrier();
        }
#pragma omp barrier
#pragma omp master
        t1 = steady_seconds();
    }  // bindings restored here, after the clock was read
    if (team != static_cast<int>(workers))
        throw MeasurementError("OpenMP gave " + std::to_string(team) + " threads instead of " + std::to_string(workers));
    run.seconds = t1 - t0;
    return run;
}

}  // namespace hwcomm
