#include "measure/sweep.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace hwcomm {

std::vector<std::uint64_t> sweep_sizes(const SweepOptions& o) {
    if (o.min_bytes == 0) throw UsageError("--min-size must be at least 1 byte");
    if (o.min_bytes > o.max_bytes)
        throw UsageError("--min-size (" + format_size(o.min_bytes) + ") is larger than --max-size (" +
                         format_size(o.max_bytes) + ")");
    if (o.points_per_octave != 1 && o.points_per_octave != 3)
        throw UsageError("--points-per-octave must be 1 or 3");
    const int step = std::max(1, o.octave_step);
    // The grid starts at the smallest power of two >= min; min and max are
    // always measured even when they are not on the grid.
    int e0 = 0;
    while (e0 < 63 && (std::uint64_t{1} << e0) < o.min_bytes) ++e0;
    std::vector<std::uint64_t> sizes{o.min_bytes, o.max_bytes};
    for (int e = e0; e < 64; e += step) {
        const std::uint64_t base = std::uint64_t{1} << e;
        if (base > o.max_bytes) break;
        for (int k = 0; k < o.points_per_octave; ++k) {
            const double x = static_cast<double>(base) * std::pow(2.0, static_cast<double>(k) / o.points_per_octave);
            const auto size = static_cast<std::uint64_t>(std::llround(x));
            if (size >= o.min_bytes && size <= o.max_bytes) sizes.push_back(size);
        }
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::vector<std::uint64_t> cap_sizes(std::vector<std::uint64_t> sizes, std::uint64_t cap_bytes) {
    if (sizes.empty()) return sizes;
    const std::uint64_t smallest = sizes.front();
    std::erase_if(sizes, [cap_bytes](std::uint64_t s) { return s > cap_bytes; });
    if (sizes.empty()) sizes.push_back(smallest);
    return sizes;
}

}  // namespace hwcomm
