// The GPU memory section's data: occupancy, stride and latency charts from
// the facts src/analyze/gpumem_facts computes (the same as `hwcomm summary`),
// and the per-warp timelines (report_gpumem_timeline.cpp).
#include "report/html/report_gpumem.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "analyze/gpumem_facts.hpp"
#include "catalog/method_names.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

std::string element_name(int bytes) {
    switch (bytes) {
        case 4: return "float";
        case 8: return "float2";
        case 16: return "float4";
        default: return std::to_string(bytes) + " B";
    }
}

std::string titled(const std::string& what, const std::vector<ReportInput>& inputs, std::size_t file) {
    return inputs.size() > 1 ? inputs[file].name + ": " + what : what;
}

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json occupancy_chart(const Record& r) {
    const analyze::OccupancyFacts f = analyze::occupancy_facts(r);
    json series = json::array();
    for (const auto& s : f.series) {
        json warps = json::array(), gbps = json::array(), bound = json::array(), latency_bound = json::array();
        for (const auto& p : s.points) {
            warps.push_back(p.warps_per_sm);
            gbps.push_back(p.gbps);
            bound.push_back(optional_number(p.bound_gbps));
            latency_bound.push_back(p.latency_bound ? 1 : 0);
        }
        const auto from = analyze::first_bandwidth_bound(s);
        series.push_back({{"label", element_name(s.element_bytes) + " \xC3\x97 " + std::to_string(s.ilp)},
                          {"element_bytes", s.element_bytes}, {"ilp", s.ilp}, {"warps", warps}, {"gbps", gbps},
                          {"bound", bound}, {"latency_bound", latency_bound},
                          {"bandwidth_bound_from", from ? json(*from) : json(nullptr)}});
    }
    return {{"series", series}, {"theoretical", optional_number(f.theoretical_gbps)},
            {"latency_ns", optional_number(f.latency_ns)}, {"peak", f.peak_gbps},
            {"peak_at", {{"warps_per_sm", f.peak_warps_per_sm}, {"ilp", f.peak_ilp}, {"element_bytes", f.peak_element_bytes}}}};
}

json stride_chart(const Record& r) {
    json series = json::array();
    bool ncu = false;
    for (const auto& s : analyze::stride_facts(r)) {
        json stride = json::array(), gbps = json::array(), expected = json::array(), theory = json::array(),
             measured = json::array();
        const auto& first = s.points.front();
        for (const auto& p : s.points) {
            stride.push_back(p.stride);
            gbps.push_back(p.gbps);
            // What the stride-1 rate of sectors would give: fewer useful bytes per sector read.
            if (first.sectors_per_request_theory && p.sectors_per_request_theory && *p.sectors_per_request_theory > 0)
                expected.push_back(first.gbps * *first.sectors_per_request_theory / *p.sectors_per_request_theory);
            else
                expected.push_back(nullptr);
            theory.push_back(optional_number(p.sectors_per_request_theory));
            measured.push_back(optional_number(p.sectors_per_request_ncu));
            ncu = ncu || p.sectors_per_request_ncu;
        }
        json one = {{"label", std::to_string(s.element_bytes) + " B"}, {"element_bytes", s.element_bytes},
                    {"stride", stride}, {"gbps", gbps}, {"expected_gbps", expected}, {"sectors_theory", theory}};
        if (ncu) one["sectors_ncu"] = measured;
        series.push_back(std::move(one));
    }
    return {{"series", series}, {"ncu", ncu}};
}

// A host or peer chase from several SMs (docs/gpumem.md "Which SM chases")
// also carries each size's nearest and farthest SM (null where one SM chased).
json latency_series(const Record& r, const analyze::LatencyLadder& l, const std::string& prefix) {
    json bytes = json::array(), ns = json::array(), nearest = json::array(), farthest = json::array();
    const std::map<std::uint64_t, double> near(l.nearest_sm_by_working_set.begin(), l.nearest_sm_by_working_set.end());
    const std::map<std::uint64_t, double> far(l.farthest_sm_by_working_set.begin(), l.farthest_sm_by_working_set.end());
    for (const auto& [b, v] : l.ns_by_working_set) {
        bytes.push_back(b), ns.push_back(v);
        const auto n = near.find(b), f = far.find(b);
        nearest.push_back(n != near.end() ? json(n->second) : json(nullptr));
        farthest.push_back(f != far.end() ? json(f->second) : json(nullptr));
    }
    const std::string memory = l.memory.empty() ? "local" : l.memory;
    json series = {{"label", prefix + memory + " (" + r.dst + ")"}, {"memory", memory}, {"bytes", bytes}, {"ns", ns}};
    if (!near.empty()) series["nearest_sm"] = nearest, series["farthest_sm"] = farthest;
    return series;
}

// gpumem-loaded-latency beside the unloaded ladder: one series per load level that loads something.
std::vector<json> loaded_series(const Record& r) {
    std::vector<json> out;
    for (const analyze::LoadedLatency& level : analyze::loaded_latency(r)) {
        if (level.load == "none") continue;
        json bytes = json::array(), ns = json::array();
        for (const auto& [b, v] : level.ns_by_working_set) bytes.push_back(b), ns.push_back(v);
        const std::string memory = r.params.count("memory") ? r.params.at("memory") : "local";
        out.push_back({{"label", memory + " (" + r.dst + ") under load: " + level.load}, {"memory", memory},
                       {"bytes", bytes}, {"ns", ns}});
    }
    return out;
}

}  // namespace

json gpumem_model(const std::vector<ReportInput>& inputs) {
    json out = {{"timelines", json::array()}, {"occupancy", json::array()}, {"stride", json::array()},
                {"latency", json::array()}};
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        std::map<std::string, json> ladders;  // source GPU -> its latency chart
        std::vector<std::string> ladder_order;
        const MethodCatalog catalog = catalog_for(inputs[f].results.meta);
        for (const Record& r : inputs[f].results.records) {
            const MethodRow* row = catalog.find(r.method);
            if (r.status != "ok" || !in_family(row, MethodFamily::GpuMemory)) continue;
            if (row->view == MethodView::GpumemTimeline) {
                json charts = timeline_charts(r);
                if (!charts.empty())
                    out["timelines"].push_back({{"title", titled("per-warp load latency, " + r.src, inputs, f)},
                                                {"file", f}, {"key", r.key}, {"charts", std::move(charts)}});
            } else if (row->view == MethodView::GpumemOccupancy) {
                json chart = occupancy_chart(r);
                chart["title"] = titled("occupancy against read bandwidth, " + r.src, inputs, f);
                chart["file"] = f, chart["key"] = r.key;
                if (!chart["series"].empty()) out["occupancy"].push_back(std::move(chart));
            } else if (row->view == MethodView::GpumemStride) {
                json chart = stride_chart(r);
                chart["title"] = titled("strided reads, " + r.src, inputs, f);
                chart["file"] = f, chart["key"] = r.key;
                if (!chart["series"].empty()) out["stride"].push_back(std::move(chart));
            } else if (row->view == MethodView::GpumemLoadedLatency) {
                if (!ladders.count(r.src)) {
                    ladder_order.push_back(r.src);
                    ladders[r.src] = {{"title", titled("load latency from " + r.src, inputs, f)}, {"file", f},
                                      {"series", json::array()}, {"plateaus", json::array()}};
                }
                for (json& s : loaded_series(r)) ladders[r.src]["series"].push_back(std::move(s));
            } else if (row->view == MethodView::GpumemLatency) {
                const analyze::LatencyLadder l = analyze::latency_ladder(r);
                if (l.ns_by_working_set.empty()) continue;
                if (!ladders.count(r.src)) {
                    ladder_order.push_back(r.src);
                    ladders[r.src] = {{"title", titled("load latency from " + r.src, inputs, f)}, {"file", f},
                                      {"series", json::array()}, {"plateaus", json::array()}};
                }
                json& chart = ladders[r.src];
                const bool tma = r.method == method_name::kGpumemTmaLatency;  // the chase by the TMA unit, labelled apart
                // layout=ring128 (nvbandwidth's order) beside the random cycle; the plateaus stay the random cycle's.
                const bool ring = r.params.count("layout") > 0;
                chart["series"].push_back(latency_series(r, l, tma ? "TMA: " : ring ? "ring: " : ""));
                if (!tma && !ring && (l.memory == "local" || l.memory.empty())) {
                    chart["l2_bytes"] = l.l2_bytes;
                    for (const auto& [name, v] : {std::pair{"L1", l.smallest_ns}, std::pair{"L2", l.l2_window_ns},
                                                  std::pair{"DRAM", l.beyond_l2_ns}})
                        if (v) chart["plateaus"].push_back({{"name", name}, {"ns", *v}});
                }
            }
        }
        for (const auto& src : ladder_order) {
            // Local first: its L1/L2/DRAM plateaus are the reference the others climb above.
            auto& series = ladders[src]["series"];
            std::stable_sort(series.begin(), series.end(), [](const json& a, const json& b) {
                return (a["memory"] == "local") > (b["memory"] == "local");
            });
            out["latency"].push_back(std::move(ladders[src]));
        }
    }
    return out;
}

}  // namespace hwcomm::report_html
