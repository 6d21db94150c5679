#include "analyze/gpumem_facts.hpp"
#include "analyze/record_facts.hpp"
#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace hwcomm::analyze {

namespace {

int int_axis(const Point& p, const std::string& name) {
    const auto v = axis_of(p, name);
    return v ? static_cast<int>(std::lround(*v)) : 0;
}

std::optional<double> median_between(const std::vector<std::pair<std::uint64_t, double>>& points, std::uint64_t lo,
                                     std::uint64_t hi) {
    std::vector<double> in;
    for (const auto& [bytes, ns] : points)
        if (bytes >= lo && bytes <= hi) in.push_back(ns);
    if (in.empty()) return std::nullopt;
    return median_value(std::move(in));
}

constexpr std::uint64_t kKiB = 1024;
// L2 size when the record does not state it (between an A100's 40 and an H100's 50 MiB).
constexpr std::uint64_t kAssumedL2Bytes = 50 * kMiB;

}  // namespace


std::optional<double> metric_of(const Point& point, const std::string& name) {
    const auto it = point.metrics.find(name);
    if (it == point.metrics.end() || !std::isfinite(it->second.value)) return std::nullopt;
    return it->second.value;
}

std::optional<double> axis_of(const Point& point, const std::string& name) {
    const auto it = point.axes.find(name);
    if (it == point.axes.end() || !it->second.is_number()) return std::nullopt;
    return it->second.get<double>();
}

OccupancyFacts occupancy_facts(const Record& record) {
    OccupancyFacts facts;
    std::map<std::pair<int, int>, OccupancySeries> by_series;
    for (const Point& p : record.points) {
        if (p.status != "ok" || !(p.bandwidth_gbps > 0)) continue;
        const int element = int_axis(p, "element_bytes"), ilp = int_axis(p, "ilp"), warps = int_axis(p, "warps_per_sm");
        OccupancySeries& s = by_series[{element, ilp}];
        s.element_bytes = element, s.ilp = ilp;
        const OccupancyPoint point{warps, p.bandwidth_gbps, metric_of(p, "littles_law_bound_gbps"),
                                   metric_of(p, "latency_bound").value_or(0) > 0.5};
        s.points.push_back(point);
        if (!facts.theoretical_gbps) facts.theoretical_gbps = metric_of(p, "theoretical_dram_gbps");
        if (!facts.latency_ns) facts.latency_ns = metric_of(p, "latency_ns");
        if (p.bandwidth_gbps > facts.peak_gbps) {
            facts.peak_gbps = p.bandwidth_gbps;
            facts.peak_warps_per_sm = warps, facts.peak_ilp = ilp, facts.peak_element_bytes = element;
            facts.peak_latency_bound = point.latency_bound;
        }
    }
    for (auto& [key, s] : by_series) {
        std::sort(s.points.begin(), s.points.end(),
                  [](const OccupancyPoint& a, const OccupancyPoint& b) { return a.warps_per_sm < b.warps_per_sm; });
        facts.series.push_back(std::move(s));
    }
    return facts;
}

std::optional<int> first_bandwidth_bound(const OccupancySeries& series) {
    for (const OccupancyPoint& p : series.points)
        if (!p.latency_bound) return p.warps_per_sm;
    return std::nullopt;
}

std::vector<StrideSeries> stride_facts(const Record& record) {
    std::map<int, StrideSeries> by_element;
    for (const Point& p : record.points) {
        if (p.status != "ok" || !(p.bandwidth_gbps > 0)) continue;
        const int element = int_axis(p, "element_bytes");
        StridePoint s{int_axis(p, "stride"), p.bandwidth_gbps, metric_of(p, "sectors_per_request_theory"), std::nullopt};
        // Nsight Compute counts sectors of the whole kernel: per request is over n / 32 warp requests.
        const auto ncu = metric_of(p, "sectors_ncu");
        const double requests = element > 0 ? static_cast<double>(p.bytes) / element / 32 : 0;
        if (ncu && requests > 0) s.sectors_per_request_ncu = *ncu / requests;
        by_element[element].element_bytes = element;
        by_element[element].points.push_back(s);
    }
    std::vector<StrideSeries> out;
    for (auto& [element, s] : by_element) {
        std::sort(s.points.begin(), s.points.end(),
                  [](const StridePoint& a, const StridePoint& b) { return a.stride < b.stride; });
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<TimelineRow> timeline_facts(const Record& record) {
    std::vector<TimelineRow> rows;
    for (const Point& p : record.points) {
        if (p.status != "ok") continue;
        TimelineRow row{int_axis(p, "element_bytes"), int_axis(p, "warps_per_block")};
        row.median_cycles = metric_of(p, "warp_latency_cycles_median");
        row.median_ns = metric_of(p, "warp_latency_ns_median");
        row.block_gap_cycles = metric_of(p, "block_gap_cycles_median");
        row.sm_clock_mhz = metric_of(p, "sm_clock_mhz");
        if (row.block_gap_cycles && row.sm_clock_mhz && *row.sm_clock_mhz > 0)
            row.block_gap_ns = *row.block_gap_cycles / *row.sm_clock_mhz * 1e3;
        row.warps = metric_of(p, "warps");
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end(), [](const TimelineRow& a, const TimelineRow& b) {
        return std::pair(a.element_bytes, a.warps_per_block) < std::pair(b.element_bytes, b.warps_per_block);
    });
    return rows;
}

std::vector<LoadedLatency> loaded_latency(const Record& record) {
    std::vector<LoadedLatency> out;
    for (const Point& p : record.points) {
        const auto axis = p.axes.find("load");
        if (p.status != "ok" || axis == p.axes.end() || !axis->second.is_string()) continue;
        const auto ns = metric_of(p, "latency_ns");
        if (!ns) continue;
        const std::string level = axis->second.get<std::string>();
        auto it = std::find_if(out.begin(), out.end(), [&](const LoadedLatency& l) { return l.load == level; });
        if (it == out.end()) it = out.insert(out.end(), LoadedLatency{level, {}, {}});
        it->ns_by_working_set.emplace_back(p.bytes, *ns);
        if (const auto u = p.extras.find("load_gbps"); u != p.extras.end())
            it->load_gbps_by_working_set.emplace_back(p.bytes, u->second);
    }
    for (LoadedLatency& l : out) {
        std::sort(l.ns_by_working_set.begin(), l.ns_by_working_set.end());
        std::sort(l.load_gbps_by_working_set.begin(), l.load_gbps_by_working_set.end());
    }
    return out;
}

LatencyLadder latency_ladder(const Record& record) {
    LatencyLadder ladder;
    if (auto it = record.params.find("memory"); it != record.params.end()) ladder.memory = it->second;
    ladder.l2_bytes = kAssumedL2Bytes;
    if (record.context.is_object() && record.context.contains("gpumem") && record.context["gpumem"].is_object()) {
        const auto& facts = record.context["gpumem"];
        if (facts.contains("l2_bytes") && facts["l2_bytes"].is_number_unsigned() && facts["l2_bytes"].get<std::uint64_t>() > 0)
            ladder.l2_bytes = facts["l2_bytes"].get<std::uint64_t>();
    }
    for (const Point& p : record.points)
        if (p.status == "ok")
            if (const auto ns = metric_of(p, "latency_ns")) ladder.ns_by_working_set.emplace_back(p.bytes, *ns);
    std::sort(ladder.ns_by_working_set.begin(), ladder.ns_by_working_set.end());
    ladder.smallest_ns = median_between(ladder.ns_by_working_set, 0, 16 * kKiB);
    ladder.l2_window_ns = median_between(ladder.ns_by_working_set, kMiB, ladder.l2_bytes / 2);
    ladder.beyond_l2_ns = median_between(ladder.ns_by_working_set, 4 * ladder.l2_bytes, ~std::uint64_t{0});
    auto& nearest = ladder.nearest_sm_by_working_set;
    auto& farthest = ladder.farthest_sm_by_working_set;
    for (const Point& p : record.points) {
        if (p.status != "ok") continue;
        const auto near = metric_of(p, "latency_ns_nearest_sm"), far = metric_of(p, "latency_ns_farthest_sm");
        if (!near || !far) continue;
        nearest.emplace_back(p.bytes, *near);
        farthest.emplace_back(p.bytes, *far);
        if (const auto sms = metric_of(p, "chase_sms"))
            ladder.chase_sms = std::max(ladder.chase_sms, static_cast<unsigned>(*sms));
    }
    std::sort(nearest.begin(), nearest.end());
    std::sort(farthest.begin(), farthest.end());
    ladder.nearest_sm_ns = median_between(nearest, kMiB, ladder.l2_bytes / 2);
    ladder.farthest_sm_ns = median_between(farthest, kMiB, ladder.l2_bytes / 2);
    return ladder;
}

}  // namespace hwcomm::analyze
