#include "measure/byte_size.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/error.hpp"

namespace hwcomm {

namespace {

// Binary shift of a unit; -1 when it is not one.
int unit_shift(std::string unit) {
    for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit.empty() || unit == "B") return 0;
    static const char letters[] = "KMGT";
    for (int i = 0; i < 4; ++i) {
        const std::string l(1, letters[i]);
        if (unit == l || unit == l + "B" || unit == l + "IB") return 10 * (i + 1);
    }
    return -1;
}

}  // namespace

std::uint64_t parse_size(const std::string& text) {
    const std::string examples = " (examples: 4096, 4K, 64MiB, 1G; K/M/G are binary)";
    std::uint64_t number = 0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    // from_chars takes no sign and no white space: "-1" and " 1" fail here.
    auto [stop, err] = std::from_chars(begin, end, number);
    if (err == std::errc::result_out_of_range) throw UsageError("'" + text + "' is too large a size");
    if (err != std::errc{} || stop == begin) throw UsageError("'" + text + "' is not a size" + examples);
    const std::string unit(stop, end);
    const int shift = unit_shift(unit);
    if (shift < 0) throw UsageError("'" + text + "' is not a size: unknown unit '" + unit + "'" + examples);
    if (shift > 0 && number > (std::numeric_limits<std::uint64_t>::max() >> shift))
        throw UsageError("'" + text + "' is too large a size");
    return number << shift;
}

std::string short_size(std::uint64_t bytes) {
    static const char* units[] = {"", "K", "M", "G", "T"};
    int u = 0;
    std::uint64_t v = bytes;
    while (u < 4 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        ++u;
    }
    return std::to_string(v) + units[u];
}

std::string format_size(std::uint64_t bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double v = static_cast<double>(bytes);
    while (v >= 1024 && u < 6) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
    else std::snprintf(buf, sizeof buf, "%.*g %s", v >= 1000 ? 4 : 3, v, units[u]);  // never 1.02e+03
    return buf;
}

}  // namespace hwcomm
