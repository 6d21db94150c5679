#pragma once
// Transfer sizes of a sweep (their text form: measure/byte_size.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "measure/byte_size.hpp"

namespace hwcomm {

struct SweepOptions {
    std::uint64_t min_bytes = 1;
    std::uint64_t max_bytes = std::uint64_t{1} << 30;
    int points_per_octave = 1;   // 1: powers of two; 3: x, x*2^(1/3), x*2^(2/3)
    int octave_step = 1;         // 2: every 4x (--quick); the grid starts at min
};

// Sizes from min to max: every power of two from the first one >= min (every
// octave_step-th, with the intermediate points), plus min and max themselves;
// ascending, no duplicates. Throws UsageError for an
// empty or inverted range or points_per_octave other than 1 or 3.
std::vector<std::uint64_t> sweep_sizes(const SweepOptions& options);

// Drops sizes above `cap_bytes` (free memory). Keeps at least the smallest.
std::vector<std::uint64_t> cap_sizes(std::vector<std::uint64_t> sizes, std::uint64_t cap_bytes);

}  // namespace hwcomm
