#pragma once
// The data the report page draws, as one JSON document: run facts per input
// file, one compact curve per record, and how curves are grouped into charts
// (comparisons side by side), small-transfer charts and src x dst heatmaps.
// Computed here, not in the page, so tests can assert the counts.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/method_catalog.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::report_html {

struct ReportInput {
    std::string name;     // legend label: the file's name
    ResultsFile results;
    Graph graph;          // the results' topology (empty when absent)
};

struct ReportOptions {
    bool raw = false;     // embed every sample, not only the quartiles
};

// {"files":[{name, run:[[label,value]...], errors:[...]}], "curves":[...],
//  "groups":[{title, caption, curves:[ids]}], "small":[...], "heatmaps":[...],
//  "gpumem":{timelines, occupancy, stride, latency} (report_gpumem.hpp),
//  "classes":[{name, classes:[{id, description, representative, members, curves, measured_as}],
//              run_time:[{method, records, full, confirmed, promoted, timed, estimate_s, elapsed_s}]}]}
nlohmann::json report_model(const std::vector<ReportInput>& inputs, const ReportOptions& options);

// Parts, for tests.
nlohmann::json run_rows(const ResultsFile& results, const Graph& graph);
nlohmann::json curve_json(const Record& record, const MethodRow* row, const Graph& graph, bool raw);
// curves: the "curves" array (each with "file", "method", "src", "dst", "params");
// catalogs: each file's (catalog_for its meta), by the curves' "file".
nlohmann::json comparison_groups(const nlohmann::json& curves, const std::vector<MethodCatalog>& catalogs);
nlohmann::json small_transfer_charts(const nlohmann::json& curves);
nlohmann::json heatmaps(const nlohmann::json& curves, const std::vector<ReportInput>& inputs);
// The study's tables, efficiencies and anomalies (src/analyze), with curve ids.
nlohmann::json analysis_json(const std::vector<ReportInput>& inputs, const nlohmann::json& curves);
// Per file, the link classes of its records with their curve ids and how each
// was measured; marks each curve with its class ("cls"), how it was measured
// ("as") and, for a confirmed one, its representative's shape ("shape").
nlohmann::json classes_json(const std::vector<ReportInput>& inputs, nlohmann::json& curves);
// Legend labels say how a curve not fully swept was measured ("gpu0 -> gpu3 [confirmed]").
void mark_measured_as(nlohmann::json& groups, const nlohmann::json& curves);

}  // namespace hwcomm::report_html
