// The per-warp timeline charts of gpumem-timeline records: the raw warps the
// record keeps in context.timeline_warps (columns block, warp, start, stop in
// SM-relative cycles; docs/gpumem.md), one chart per (element size, warps per
// block), at most kMaxTimelineWarps lines each so the page stays light.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "analyze/gpumem_facts.hpp"
#include "report/html/report_gpumem.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

bool numbers(const json& column, std::size_t n) {
    if (!column.is_array() || column.size() < n) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (!column[i].is_number()) return false;
    return true;
}

// The summary metrics of the point with the same axes (clock, medians).
const Point* point_of(const Record& record, int element_bytes, int warps_per_block) {
    for (const Point& p : record.points)
        if (p.status == "ok" && analyze::axis_of(p, "element_bytes") == element_bytes &&
            analyze::axis_of(p, "warps_per_block") == warps_per_block)
            return &p;
    return nullptr;
}

json one_chart(const Record& record, const json& raw) {
    const std::size_t kept = raw.contains("start") && raw["start"].is_array() ? raw["start"].size() : 0;
    for (const char* column : {"start", "stop", "block", "warp"})
        if (!raw.contains(column) || !numbers(raw[column], kept)) return nullptr;
    const bool sm_per_warp = raw.contains("sm") && numbers(raw["sm"], kept) && kept > 0;
    // The earliest warps by start: the order the record keeps them in, made sure.
    std::vector<std::size_t> order(kept);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return raw["start"][a].get<double>() < raw["start"][b].get<double>();
    });
    const std::size_t drawn = std::min(kept, kMaxTimelineWarps);
    json start = json::array(), stop = json::array(), sm = json::array(), first = json::array(), block = json::array();
    for (std::size_t k = 0; k < drawn; ++k) {
        const std::size_t i = order[k];
        start.push_back(raw["start"][i]);
        stop.push_back(raw["stop"][i]);
        block.push_back(raw["block"][i]);
        // The study draws each block's first warp in black: warp 0 of its block.
        first.push_back(raw["warp"][i].get<double>() == 0 ? 1 : 0);
        sm.push_back(sm_per_warp ? raw["sm"][i] : raw.value("sm", json(0)));
    }
    const int element = raw.value("element_bytes", 0), warps_per_block = raw.value("warps_per_block", 0);
    json chart = {{"element_bytes", element}, {"warps_per_block", warps_per_block}, {"kept", kept},
                  {"drawn", drawn}, {"start", start}, {"stop", stop}, {"sm", sm}, {"first", first},
                  {"block", block}, {"unit", raw.value("unit", std::string("cycles"))}};
    if (const Point* p = point_of(record, element, warps_per_block)) {
        for (const char* name : {"sm_clock_mhz", "warp_latency_cycles_median", "warp_latency_ns_median",
                                 "block_gap_cycles_median", "warps"})
            if (const auto v = analyze::metric_of(*p, name)) chart[name] = *v;
    }
    return chart;
}

}  // namespace

json timeline_charts(const Record& record) {
    json charts = json::array();
    if (!record.context.is_object() || !record.context.contains("timeline_warps")) return charts;
    const json& all = record.context["timeline_warps"];
    if (!all.is_array()) return charts;
    for (const json& raw : all) {
        if (!raw.is_object()) continue;
        json chart = one_chart(record, raw);
        if (!chart.is_null() && chart["drawn"].get<std::size_t>() > 0) charts.push_back(std::move(chart));
    }
    std::sort(charts.begin(), charts.end(), [](const json& a, const json& b) {
        return std::pair(a["element_bytes"].get<int>(), a["warps_per_block"].get<int>()) <
               std::pair(b["element_bytes"].get<int>(), b["warps_per_block"].get<int>());
    });
    return charts;
}

}  // namespace hwcomm::report_html
