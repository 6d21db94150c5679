#pragma once
// What the report shows about one curve (record): large-transfer bandwidth,
// best point, the path's theoretical limit and its fraction, suspect points.
// The one place the report takes these numbers from: an adapter over the
// analysis (src/analyze), so the page and `hwcomm analyze` never disagree.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/method_row.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::report_html {

struct SuspectPoint {
    std::uint64_t bytes = 0;
    std::string reason;
};

struct CurveFacts {
    std::optional<double> large_gbps;   // large-transfer bandwidth
    std::uint64_t large_bytes = 0;
    bool large_cache_resident = false;  // even the largest size fits a cache: no memory figure
    std::optional<double> best_gbps;    // best point over sizes
    std::uint64_t best_bytes = 0;
    bool best_cache_resident = false;   // best point fits a cache: not the link's rate
    std::optional<double> limit_gbps;   // theoretical bottleneck of the path
    std::string limit_what;             // "PCIe 5.0 x16", "NVLink 4.0 x18"
    std::optional<double> limit_fraction;  // large_gbps / limit_gbps
    std::vector<SuspectPoint> suspects;
    std::string gate_note;  // timed without its blocking kernel (analyze::dropped_gate_note), else ""
};

// `row`: the record's method row (null: a method no catalog knows).
CurveFacts curve_facts(const Record& record, const MethodRow* row, const Graph& graph);

}  // namespace hwcomm::report_html
