// Interim adapter: a minimal reading of the curve until src/analyze's
// curve_metrics (branch insight) is merged; then this file only translates
// analyze::CurveMetrics into CurveFacts.
#include "report/html/curve_facts.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/paths.hpp"

namespace hwcomm::report_html {

CurveFacts curve_facts(const Record& record, const Graph& graph) {
    CurveFacts facts;
    const Point* largest = nullptr;
    for (const Point& p : record.points) {
        if (p.status != "ok") {
            facts.suspects.push_back({p.bytes, "failed: " + p.error});
            continue;
        }
        if (!largest || p.bytes > largest->bytes) largest = &p;
        if (!facts.best_gbps || p.bandwidth_gbps > *facts.best_gbps) {
            facts.best_gbps = p.bandwidth_gbps;
            facts.best_bytes = p.bytes;
        }
    }
    if (largest) {
        facts.large_gbps = largest->bandwidth_gbps;
        facts.large_bytes = largest->bytes;
    }
    try {
        if (auto path = find_path(graph, record.src, record.dst); path && path->bottleneck_gbps > 0)
            facts.limit_gbps = path->bottleneck_gbps;
    } catch (const std::invalid_argument&) {
        // An endpoint the topology does not know: no limit to show.
    }
    if (facts.limit_gbps && facts.large_gbps) facts.limit_fraction = *facts.large_gbps / *facts.limit_gbps;
    return facts;
}

}  // namespace hwcomm::report_html
