// The report's view of src/analyze's curve metrics: the page and
// `hwcomm analyze` read the same numbers (one implementation, in analyze).
#include "report/html/curve_facts.hpp"

#include "analyze/curve_metrics.hpp"
#include "analyze/record_facts.hpp"

namespace hwcomm::report_html {

CurveFacts curve_facts(const Record& record, const MethodRow* row, const Graph& graph) {
    const analyze::CurveMetrics metrics =
        analyze::curve_metrics(record, row, graph.vertices().empty() ? nullptr : &graph);
    CurveFacts facts;
    if (metrics.large) {
        facts.large_gbps = metrics.large->gbps;
        facts.large_bytes = metrics.large->to_bytes;
        facts.large_cache_resident = metrics.large->cache_resident;
    }
    if (metrics.best) {
        facts.best_gbps = metrics.best->gbps;
        facts.best_bytes = metrics.best->bytes;
        facts.best_cache_resident = metrics.best->cache_resident;
    }
    if (metrics.limit) {
        facts.limit_gbps = metrics.limit->gbps;
        facts.limit_what = metrics.limit->what;
    }
    facts.limit_fraction = metrics.fraction_of_limit;
    for (const auto& s : metrics.suspects) facts.suspects.push_back({s.bytes, s.kind + ": " + s.reason});
    facts.gate_note = analyze::dropped_gate_note(record);
    return facts;
}

}  // namespace hwcomm::report_html
