#include "report/html/edge_measures.hpp"

#include <stdexcept>

#include "analyze/cpu_facts.hpp"
#include "core/paths.hpp"
#include "report/html/curve_facts.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::report_html {

namespace {

bool is_multi_stream(const Record& record, const MethodRow* row) {
    if (record.lanes.size() > 1 || (row && is_duplex(*row, record.params))) return true;
    for (const Point& p : record.points)
        if (!p.lanes.empty() || p.extras.count("fwd_gbps")) return true;
    return false;
}

}  // namespace

std::map<std::size_t, EdgeMeasure> measured_edges(const Graph& graph, const ResultsFile& results) {
    std::map<std::size_t, EdgeMeasure> best;
    const MethodCatalog catalog = catalog_for(results.meta);
    for (const Record& record : results.records) {
        const MethodRow* row = catalog.find(record.method);
        // gpumem records load a few bytes at a time or stay inside one GPU: no measure of a link.
        if (record.status != "ok" || is_multi_stream(record, row) || in_family(row, MethodFamily::GpuMemory) ||
            analyze::in_cpu_section(row))
            continue;
        const CurveFacts facts = curve_facts(record, row, graph);
        if (!facts.large_gbps) continue;
        std::optional<Path> path;
        try {
            path = find_path(graph, record.src, record.dst);
        } catch (const std::invalid_argument&) {
            continue;  // an endpoint this topology does not have
        }
        if (!path) continue;
        for (std::size_t e : path->edges) {
            auto [it, inserted] = best.try_emplace(e, EdgeMeasure{*facts.large_gbps, record.key});
            if (!inserted && *facts.large_gbps > it->second.gbps) it->second = {*facts.large_gbps, record.key};
        }
    }
    return best;
}

}  // namespace hwcomm::report_html
