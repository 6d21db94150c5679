#pragma once
// Monotonic wall clock in seconds for CPU-side timing.
#include <chrono>

namespace hwcomm {

inline double steady_seconds() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Resolution of steady_seconds(): the smallest non-zero step seen in a few reads.
double steady_clock_resolution();

}  // namespace hwcomm
