#include "report/text/text_format.hpp"

#include <cmath>
#include <cstdio>

namespace hwcomm::text {

std::string gbps(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 1 ? "%.2f GB/s" : "%.3g GB/s", v);
    return buf;
}

std::string value(double v, const std::string& unit) {
    if (unit == "GB/s") return gbps(v);
    char buf[48];
    if (!std::isfinite(v)) std::snprintf(buf, sizeof buf, "-");
    else if (std::abs(v) >= 100 && std::abs(v) < 1e6) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.3g", v);
    return unit.empty() ? std::string(buf) : std::string(buf) + " " + unit;
}

}  // namespace hwcomm::text
