#include "measure/sweep.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

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

std::uint64_t parse_size(const std::string& text) {
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == 0 || i > 19) throw UsageError("'" + text + "' is not a size (examples: 4096, 1K, 64MiB, 1G)");
    const std::uint64_t number = std::stoull(text.substr(0, i));
    std::string unit;
    for (char c : text.substr(i)) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int shift = 0;
    if (unit.empty() || unit == "B") shift = 0;
    else if (unit == "K" || unit == "KB" || unit == "KIB") shift = 10;
    else if (unit == "M" || unit == "MB" || unit == "MIB") shift = 20;
    else if (unit == "G" || unit == "GB" || unit == "GIB") shift = 30;
    else if (unit == "T" || unit == "TB" || unit == "TIB") shift = 40;
    else throw UsageError("'" + text + "' is not a size (unknown unit '" + text.substr(i) + "')");
    if (shift > 0 && number > (std::numeric_limits<std::uint64_t>::max() >> shift))
        throw UsageError("'" + text + "' is too large");
    return number << shift;
}

std::string format_size(std::uint64_t bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = static_cast<double>(bytes);
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
    else std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
    return buf;
}

}  // namespace hwcomm
