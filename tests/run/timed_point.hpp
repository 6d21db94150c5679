#pragma once
// A measured point made by hand for the confirmation tests: `bytes` moved in
// `seconds` per transfer, ok, its 95% CI of the median time +-0.2%.
#include <cstdint>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::test {

inline Point timed_point(std::uint64_t bytes, double seconds) {
    Point p;
    p.bytes = bytes;
    p.status = "ok";
    p.bytes_per_rep = static_cast<double>(bytes);
    p.bandwidth_gbps = static_cast<double>(bytes) / seconds / 1e9;
    p.stats.median = seconds;
    p.stats.ci95_low = seconds * 0.998;
    p.stats.ci95_high = seconds * 1.002;
    return p;
}

// A host link's record of two points: 1 B in 2 us and kPlateau bytes at `gbps`.
inline constexpr std::uint64_t kPlateau = std::uint64_t{64} << 20;
inline Record two_point_link(const std::string& dst, double gbps) {
    Record r;
    r.src = "numa0";
    r.dst = dst;
    r.points = {timed_point(1, 2e-6), timed_point(kPlateau, static_cast<double>(kPlateau) / (gbps * 1e9))};
    return r;
}

// The records as the judgement functions take them.
inline std::vector<const Record*> pointers(const std::vector<Record>& records) {
    std::vector<const Record*> out;
    for (const Record& r : records) out.push_back(&r);
    return out;
}

}  // namespace hwcomm::test
