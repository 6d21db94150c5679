#pragma once
// Hand-made memcpy-peer records of the DGX-1 (tests/fixtures/hwloc/dgx1.xml)
// for the tests of what analyze and the report read of a class measured again.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/graph_json.hpp"
#include "core/results.hpp"
#include "discover/discover.hpp"

namespace hwcomm::test {

inline constexpr std::uint64_t k64M = 64ull << 20;

// memcpy-peer from 64 MiB to `largest` at `gbps`, each point's 95% CI of the
// median time +-`ci` (relative).
inline Record peer(const std::string& src, const std::string& dst, double gbps, const std::string& as,
                   std::uint64_t largest = k64M, double ci = 0.001) {
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
        p.stats.ci95_low = p.stats.median * (1 - ci);
        p.stats.ci95_high = p.stats.median * (1 + ci);
        p.stats.n = 5;
        p.bandwidth_gbps = gbps;
        r.points.push_back(p);
    }
    r.measured_as = as;
    return r;
}

// Four NVLink neighbours (gpu0->gpu1 the representative, swept to 1 GiB) at
// `first` GB/s at 64 MiB, measured again there at `again` (0: not).
inline ResultsFile nvlink_class(const std::vector<double>& first, const std::vector<double>& again) {
    ResultsFile f;
    const Graph g = discover_machine(
        {.input_xml = std::string(HWCOMM_FIXTURES) + "/hwloc/dgx1.xml", .use_nvml = false, .use_cuda = false});
    f.topology = graph_to_json(g);
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"gpu0", "gpu1"}, {"gpu0", "gpu2"}, {"gpu2", "gpu3"}, {"gpu4", "gpu0"}};
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        Record r = peer(pairs[k].first, pairs[k].second, first[k], k == 0 ? "full" : "confirmed",
                        k == 0 ? 1ull << 30 : k64M);
        if (k < again.size() && again[k] > 0)
            r.context["second_pass"] = {{"reason", "its 4 links spread"}, {"bytes", k64M},
                                        {"first_gbps", first[k]},     {"again_gbps", again[k]},
                                        {"position", {k + 1, 4}},      {"elapsed_s", 0.1}};
        f.records.push_back(std::move(r));
    }
    return f;
}

}  // namespace hwcomm::test
