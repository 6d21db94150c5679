#pragma once
// Hand-made memcpy-peer records of the DGX-1 (tests/fixtures/hwloc/dgx1.xml)
// for the tests of what analyze reads of a class measured again.
#include <cstdint>
#include <string>

#include "core/results.hpp"

namespace hwcomm::test {

inline constexpr std::uint64_t k64M = 64ull << 20;

// memcpy-peer from 64 MiB to `largest` at `gbps`, CIs +-0.1%.
inline Record peer(const std::string& src, const std::string& dst, double gbps, const std::string& as,
                   std::uint64_t largest = k64M) {
    Record r;
    r.method = "memcpy-peer";
    r.src = src;
    r.dst = dst;
    r.params = {{"peer", "on"}};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    for (std::uint64_t bytes = k64M; bytes <= largest; bytes *= 2) {
        Point p;
        p.bytes = bytes;
        p.verified = true;
        p.bytes_per_rep = static_cast<double>(bytes);
        p.stats.median = static_cast<double>(bytes) / gbps / 1e9;
        p.stats.ci95_low = p.stats.median * 0.999;
        p.stats.ci95_high = p.stats.median * 1.001;
        p.stats.n = 5;
        p.bandwidth_gbps = gbps;
        r.points.push_back(p);
    }
    r.measured_as = as;
    return r;
}

}  // namespace hwcomm::test
