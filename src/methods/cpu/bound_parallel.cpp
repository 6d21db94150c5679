#include "methods/cpu/bound_parallel.hpp"

#include <omp.h>

#include "core/error.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

BoundRun run_bound_parallel(const HwlocTopology& topo, std::span<const CoreSlot> slots, std::size_t reps,
                            const std::function<void(unsigned, unsigned)>& body) {
    const auto workers = static_cast<unsigned>(slots.size());
    if (workers == 0) throw MeasurementError("no core to run the workers on");
    BoundRun run;
    run.ran_on_pus.assign(workers, -1);
    double t0 = 0, t1 = 0;
    int team = 0;
#pragma omp parallel num_threads(static_cast<int>(workers))
    {
        const auto rank = static_cast<unsigned>(omp_get_thread_num());
        const auto n = static_cast<unsigned>(omp_get_num_threads());
        ScopedThreadBinding binding(topo, slots[rank < workers ? rank : 0]);
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
        if (rank < workers) run.ran_on_pus[rank] = current_pu(topo);
    }  // bindings restored here, after the clock was read
    if (team != static_cast<int>(workers))
        throw MeasurementError("OpenMP gave " + std::to_string(team) + " threads instead of " + std::to_string(workers));
    run.seconds = t1 - t0;
    return run;
}

}  // namespace hwcomm
