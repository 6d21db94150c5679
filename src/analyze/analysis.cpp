// analyze_results: series, cells, efficiency and anomalies of several files.
#include "analyze/class_outliers.hpp"
#include "analyze/representative_recheck.hpp"
#include "analyze/cpu_facts.hpp"
#include "analyze/gpumem_facts.hpp"
#include "analyze/record_classes.hpp"
#include "analyze/study.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::analyze {

Analysis analyze_results(const std::vector<NamedResults>& files, const VerdictRule& rule) {
    validate(rule);
    Analysis a;
    a.rule = rule;
    for (const NamedResults& f : files) a.inputs.push_back(f.name);
    a.series = build_series(files, rule, a.notes);
    a.cells = study_cells(a.series, rule);
    // Efficiency of every record whose path states a limit, not only the study's series.
    for (const NamedResults& f : files) {
        const auto topology = topology_of(f.file);
        if (!topology) continue;
        const MethodCatalog catalog = catalog_for(f.file.meta);
        for (const Record& r : f.file.records) {
            const MethodRow* row = catalog.find(r.method);
            // A pointer chase's 8 bytes per load over a link is not the link's use (docs/gpumem.md).
            // Nor are CPU latency and read/write-mix records (their own section).
            if (in_family(row, MethodFamily::GpuMemory) || in_cpu_section(row)) continue;
            const CurveMetrics m = curve_metrics(r, row, &*topology);
            if (!m.fraction_of_limit) continue;
            a.efficiency.push_back({r.key, m.large->gbps, m.limit->gbps, *m.fraction_of_limit, m.limit->what});
        }
    }
    a.anomalies = find_anomalies(a.series, a.cells, rule);
    // Records outside their link class's spread, every method (the cells above cover the study's copies only).
    for (const NamedResults& f : files) {
        const auto topology = topology_of(f.file);
        const ClassMap classes = record_classes(f.file, topology ? &*topology : nullptr, f.name);
        for (const ClassOutlier& o : class_outliers(f.file, classes, rule)) a.anomalies.push_back(outlier_anomaly(o));
        for (const Record& r : f.file.records)
            if (auto recheck = recheck_anomaly(r)) a.anomalies.push_back(std::move(*recheck));
    }
    return a;
}

}  // namespace hwcomm::analyze
