// One record as the page draws it: sizes, median bandwidth, the interquartile
// band, time per transfer, per-direction or per-lane curves, the curve facts.
#include <cmath>
#include <cstdio>
#include <string>

#include "report/html/curve_facts.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

// Four significant digits: enough for a chart, and it keeps the page small.
double round4(double value) {
    if (!std::isfinite(value) || value == 0) return 0;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return std::strtod(buffer, nullptr);
}

double gbps_at(double bytes, double seconds) { return seconds > 0 && std::isfinite(seconds) ? bytes / seconds / 1e9 : 0; }

std::string params_label(const std::map<std::string, std::string>& params) {
    std::string text;
    for (const auto& [k, v] : params) text += (text.empty() ? "" : " ") + k + "=" + v;
    return text;
}

json facts_json(const CurveFacts& facts) {
    json j = json::object();
    if (facts.large_gbps) j["large"] = round4(*facts.large_gbps), j["large_bytes"] = facts.large_bytes;
    if (facts.large_cache_resident) j["large_cache"] = true;
    if (facts.best_gbps)
        j["best"] = round4(*facts.best_gbps), j["best_bytes"] = facts.best_bytes, j["cache"] = facts.best_cache_resident;
    if (facts.limit_gbps) j["limit"] = round4(*facts.limit_gbps), j["limit_what"] = facts.limit_what;
    if (facts.limit_fraction) j["fraction"] = round4(*facts.limit_fraction);
    if (!facts.gate_note.empty()) j["note"] = facts.gate_note;
    return j;
}

}  // namespace

json curve_json(const Record& record, const MethodRow* row, const Graph& graph, bool raw) {
    json c = {{"key", record.key}, {"method", record.method}, {"src", record.src}, {"dst", record.dst},
              {"params", params_label(record.params)}, {"status", record.status}};
    if (!record.error.empty()) c["error"] = record.error;
    json bytes = json::array(), bw = json::array(), lo = json::array(), hi = json::array(), time_us = json::array();
    json samples = json::array();
    std::map<std::string, json> extra_curves;  // "forward"/"reverse" or lane labels -> GB/s per point
    for (const Point& p : record.points) {
        if (p.status != "ok") continue;
        const double per_rep = p.bytes_per_rep > 0 ? p.bytes_per_rep : static_cast<double>(p.bytes);
        bytes.push_back(p.bytes);
        bw.push_back(round4(p.bandwidth_gbps));
        // Longer time = lower bandwidth: q3 gives the band's bottom.
        const double low = gbps_at(per_rep, p.stats.q3), high = gbps_at(per_rep, p.stats.q1);
        lo.push_back(round4(low > 0 ? low : p.bandwidth_gbps));
        hi.push_back(round4(high > 0 ? high : p.bandwidth_gbps));
        time_us.push_back(round4(p.stats.median * 1e6));
        if (raw) {
            json row = json::array();
            for (double s : p.samples_s) row.push_back(round4(gbps_at(per_rep, s)));
            samples.push_back(std::move(row));
        }
        for (const LanePoint& lane : p.lanes) extra_curves[lane.label].push_back(round4(lane.bandwidth_gbps));
        if (p.lanes.empty()) {
            // Schema 1 duplex records keep each direction in extras.
            if (auto f = p.extras.find("fwd_gbps"); f != p.extras.end()) extra_curves["forward"].push_back(round4(f->second));
            if (auto r = p.extras.find("rev_gbps"); r != p.extras.end()) extra_curves["reverse"].push_back(round4(r->second));
        }
    }
    c["b"] = std::move(bytes);
    c["bw"] = std::move(bw);
    c["lo"] = std::move(lo);
    c["hi"] = std::move(hi);
    c["t"] = std::move(time_us);
    if (raw) c["raw"] = std::move(samples);
    json parts = json::object();
    for (auto& [label, values] : extra_curves)
        if (values.size() == c["b"].size()) parts[label] = std::move(values);
    if (!parts.empty()) c["parts"] = std::move(parts);
    const CurveFacts facts = curve_facts(record, row, graph);
    c["facts"] = facts_json(facts);
    json suspects = json::array();
    for (const SuspectPoint& s : facts.suspects) suspects.push_back({s.bytes, s.reason});
    c["sus"] = std::move(suspects);
    return c;
}

}  // namespace hwcomm::report_html
