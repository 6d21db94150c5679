#include "report/text/record_line.hpp"

#include <cstdio>

#include "analyze/curve_metrics.hpp"
#include "measure/byte_size.hpp"
#include "measure/statistics.hpp"
#include "report/text/text_format.hpp"

namespace hwcomm::text {

namespace {

std::string axes_text(const Point& p) {
    std::string out;
    for (const auto& [name, v] : p.axes) out += " " + name + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
    return out;
}

std::optional<double> metric(const Point& p, const std::string& name) {
    if (name == "bandwidth_gbps") return p.bandwidth_gbps;
    const auto it = p.metrics.find(name);
    if (it == p.metrics.end() || !std::isfinite(it->second.value)) return std::nullopt;
    return it->second.value;
}

// Best bandwidth over the sizes, where a cache could hold it said so, then the
// largest size's rate (the figure a link is judged by).
std::string peak_bandwidth(const Record& r, const MethodRow* row, const Graph* topology) {
    const analyze::CurveMetrics m = analyze::curve_metrics(r, row, topology);
    const Point* largest = nullptr;
    for (const Point& p : r.points)
        if (p.status == "ok" && (!largest || p.bytes > largest->bytes)) largest = &p;
    if (!m.best || !largest) return "";
    std::string s = "peak " + gbps(m.best->gbps) + " at " + format_size(m.best->bytes);
    if (m.best->cache_resident) s += " (fits the " + m.best->cache + ")";
    return s + ", " + format_size(largest->bytes) + " " + gbps(largest->bandwidth_gbps);
}

std::string best_over_axes(const Record& r, const Headline& h) {
    const Point* best = nullptr;
    double best_value = 0;
    for (const Point& p : r.points) {
        if (p.status != "ok") continue;
        const auto v = metric(p, h.metric);
        if (v && (!best || *v > best_value)) best = &p, best_value = *v;
    }
    if (!best) return "";
    return "best " + value(best_value, h.unit) + " at" + axes_text(*best);
}

std::string metric_at_largest(const Record& r, const Headline& h) {
    const Point* largest = nullptr;
    for (const Point& p : r.points)
        if (p.status == "ok" && metric(p, h.metric) && (!largest || p.bytes > largest->bytes)) largest = &p;
    if (!largest) return "";
    return h.metric + " " + value(*metric(*largest, h.metric), h.unit) + " at " + format_size(largest->bytes);
}

std::string metric_median(const Record& r, const Headline& h) {
    std::vector<double> values;
    for (const Point& p : r.points)
        if (p.status == "ok")
            if (const auto v = metric(p, h.metric)) values.push_back(*v);
    if (values.empty()) return "";
    return h.metric + " " + value(median_value(values), h.unit) + " (median of " + std::to_string(values.size()) +
           " points)";
}

// One transfer's median time at the smallest size, per value of the other
// axes (priority: the wait behind a queued load included).
std::string time_at_smallest(const Record& r, const Headline& h) {
    const Point* smallest = nullptr;
    for (const Point& p : r.points)
        if (p.status == "ok" && p.stats.median > 0 && (!smallest || p.bytes < smallest->bytes)) smallest = &p;
    if (!smallest) return "";
    const double scale = h.unit == "us" ? 1e6 : h.unit == "ms" ? 1e3 : 1;
    std::string out = "time at " + format_size(smallest->bytes) + ":";
    const char* sep = "";
    for (const Point& p : r.points)
        if (p.status == "ok" && p.bytes == smallest->bytes && p.stats.median > 0) {
            out += sep + axes_text(p) + " " + value(p.stats.median * scale, h.unit);
            sep = ",";
        }
    return out;
}

std::string headline(const Record& r, const MethodRow* row, const Graph* topology) {
    const Headline h = row ? row->headline : Headline{};
    switch (h.kind) {
    case HeadlineKind::PeakBandwidth: return peak_bandwidth(r, row, topology);
    case HeadlineKind::BestOverAxes: return best_over_axes(r, h);
    case HeadlineKind::MetricAtLargest: return metric_at_largest(r, h);
    case HeadlineKind::MetricMedian: return metric_median(r, h);
    case HeadlineKind::TimeAtSmallest: return time_at_smallest(r, h);
    }
    return "";
}

}  // namespace

std::string record_line(const Record& record, const MethodRow* row, const Graph* topology, std::size_t index,
                        std::size_t total) {
    std::string line = "[" + std::to_string(index) + "/" + std::to_string(total) + "] " + record.method + " " +
                       record.src + "->" + record.dst;
    for (const auto& [k, v] : record.params) line += " " + k + "=" + v;
    line += ": ";
    const std::string figure = headline(record, row, topology);
    line += figure;
    if (record.status != "ok") line += std::string(figure.empty() ? "" : "; ") + "error: " + record.error;
    else if (figure.empty()) line += "no points";
    if (const auto it = record.context.find("elapsed_s"); it != record.context.end() && it->is_number()) {
        char took[32];
        std::snprintf(took, sizeof took, " (%.1f s)", it->get<double>());
        line += took;
    }
    return line;
}

}  // namespace hwcomm::text
