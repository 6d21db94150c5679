#include "analyze/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

std::string params_text(const std::map<std::string, std::string>& params) {
    std::string text;
    for (const auto& [k, v] : params) {
        if (k == "numa") continue;
        if (!text.empty()) text += " ";
        text += k + "=" + v;
    }
    return text;
}

SummaryRow summarize(const Record& record) {
    SummaryRow row;
    row.method = record.method;
    row.src = record.src;
    row.dst = record.dst;
    row.params = params_text(record.params);
    if (record.context.is_object() && record.context.contains("timing_mode") &&
        record.context["timing_mode"].is_string())
        row.timing = record.context["timing_mode"].get<std::string>();

    int failed = 0, unverified = 0;
    const Point* smallest = nullptr;
    for (const Point& p : record.points) {
        if (p.status != "ok") {
            ++failed;
            continue;
        }
        if (!p.verified) ++unverified;
        if (p.stats.n == 0) continue;
        if (!row.peak_gbps || p.bandwidth_gbps > *row.peak_gbps) {
            row.peak_gbps = p.bandwidth_gbps;
            row.peak_bytes = p.bytes;
            const auto f = p.extras.find("fwd_gbps");
            const auto r = p.extras.find("rev_gbps");
            row.fwd_gbps = f == p.extras.end() ? std::nullopt : std::optional<double>(f->second);
            row.rev_gbps = r == p.extras.end() ? std::nullopt : std::optional<double>(r->second);
        }
        if (!smallest || p.bytes < smallest->bytes) smallest = &p;
        if (p.bytes == 4) row.latency_4b_us = p.stats.median * 1e6;
        if (p.bytes == 8) row.latency_8b_us = p.stats.median * 1e6;
    }
    if (smallest) {
        row.small_latency_us = smallest->stats.median * 1e6;
        row.small_bytes = smallest->bytes;
    }
    if (record.status != "ok")
        row.status = "error: " + record.error;
    else if (failed)
        row.status = std::to_string(failed) + " points failed";
    else if (unverified)
        row.status = std::to_string(unverified) + " points unverified";
    return row;
}

std::vector<SummaryRow> summarize(const ResultsFile& file) {
    std::vector<SummaryRow> rows;
    rows.reserve(file.records.size());
    for (const Record& r : file.records) rows.push_back(summarize(r));
    return rows;
}

namespace {

std::string fixed(std::optional<double> v, int decimals) {
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
    return buf;
}

std::string pad(const std::string& s, std::size_t width, bool right = false) {
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string format_summary_table(const std::vector<SummaryRow>& rows) {
    struct Line {
        std::string method, path, params, peak, at, lat, lat48, note;
    };
    std::vector<Line> lines;
    lines.push_back({"method", "src->dst", "params", "peak GB/s", "at", "lat us", "4B/8B us", "status / notes"});
    for (const SummaryRow& r : rows) {
        Line l;
        l.method = r.method;
        l.path = r.src + "->" + r.dst;
        l.params = r.params.empty() ? "-" : r.params;
        l.peak = fixed(r.peak_gbps, 1);
        l.at = r.peak_gbps ? format_size(r.peak_bytes) : "-";
        l.lat = r.small_latency_us ? fixed(r.small_latency_us, 2) + " @" + format_size(r.small_bytes) : "-";
        l.lat48 = (r.latency_4b_us || r.latency_8b_us) ? fixed(r.latency_4b_us, 2) + "/" + fixed(r.latency_8b_us, 2)
                                                        : "-";
        l.note = r.status;
        if (r.fwd_gbps || r.rev_gbps) l.note += " (fwd " + fixed(r.fwd_gbps, 1) + ", rev " + fixed(r.rev_gbps, 1) + ")";
        if (!r.timing.empty() && r.timing != "event") l.note += " [" + r.timing + "]";
        lines.push_back(std::move(l));
    }
    std::size_t w[7] = {0, 0, 0, 0, 0, 0, 0};
    for (const Line& l : lines) {
        const std::string* cols[7] = {&l.method, &l.path, &l.params, &l.peak, &l.at, &l.lat, &l.lat48};
        for (int i = 0; i < 7; ++i) w[i] = std::max(w[i], cols[i]->size());
    }
    std::ostringstream out;
    for (const Line& l : lines) {
        out << pad(l.method, w[0]) << "  " << pad(l.path, w[1]) << "  " << pad(l.params, w[2]) << "  "
            << pad(l.peak, w[3], true) << "  " << pad(l.at, w[4], true) << "  " << pad(l.lat, w[5], true) << "  "
            << pad(l.lat48, w[6], true) << "  " << l.note << "\n";
    }
    out << "GB/s = 1e9 bytes/s; peak = best median bandwidth over sizes; lat = median time per transfer "
           "at the smallest size\n";
    return out.str();
}

}  // namespace hwcomm::analyze
