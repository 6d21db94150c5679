// The analysis section: the study's tables, efficiencies and anomalies from
// src/analyze (the same as `hwcomm analyze`), each cell with the curves that
// decided it, found as record keys anywhere in the cell's evidence.
#include <exception>
#include <map>
#include <set>
#include <string>

#include "analyze/study.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

void collect_keys(const json& value, const std::map<std::string, std::size_t>& curve_of, std::set<std::size_t>& found) {
    if (value.is_string()) {
        if (auto it = curve_of.find(value.get<std::string>()); it != curve_of.end()) found.insert(it->second);
    } else if (value.is_structured()) {
        for (const auto& item : value) collect_keys(item, curve_of, found);
    }
}

json curve_ids(const json& value, const std::map<std::string, std::size_t>& curve_of) {
    std::set<std::size_t> found;
    collect_keys(value, curve_of, found);
    return json(std::vector<std::size_t>(found.begin(), found.end()));
}

}  // namespace

json analysis_json(const std::vector<ReportInput>& inputs, const json& curves) {
    std::map<std::string, std::size_t> curve_of;  // record key -> first curve with it
    for (std::size_t id = 0; id < curves.size(); ++id) curve_of.try_emplace(curves[id]["key"].get<std::string>(), id);
    json doc;
    try {
        std::vector<analyze::NamedResults> files;
        for (const auto& input : inputs) files.push_back({input.name, input.results});
        doc = analyze::analysis_to_json(analyze::analyze_results(files));
    } catch (const std::exception& e) {
        return {{"error", e.what()}};
    }
    json out = {{"rule", doc["rule"]["text"]}, {"notes", doc["notes"]}, {"cells", json::array()},
                {"efficiency", json::array()}, {"anomalies", json::array()}};
    for (auto& cell : doc["cells"]) {
        cell["curves"] = curve_ids(cell["evidence"], curve_of);
        cell["reason"] = analyze::cell_reason(cell["evidence"]);
        cell.erase("evidence");  // large; the curves show it
        out["cells"].push_back(std::move(cell));
    }
    for (auto& e : doc["efficiency"]) {
        e["curves"] = curve_ids(e["key"], curve_of);
        out["efficiency"].push_back(std::move(e));
    }
    for (auto& a : doc["anomalies"]) {
        a["curves"] = curve_ids(a["series"], curve_of);
        a.erase("series");
        out["anomalies"].push_back(std::move(a));
    }
    return out;
}

}  // namespace hwcomm::report_html
