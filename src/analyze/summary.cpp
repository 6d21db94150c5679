#include "analyze/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>
#include <map>
#include <sstream>

#include "analyze/cluster.hpp"
#include "analyze/record_facts.hpp"
#include "analyze/representative_recheck.hpp"
#include "catalog/method_catalog.hpp"
#include "catalog/row_json.hpp"
#include "core/error.hpp"
#include "io/cluster_section.hpp"
#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

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

SummaryRow summarize(const Record& record, const MethodRow* row_of_method, const Graph* topology,
                     const CurveOptions& options) {
    SummaryRow row;
    row.key = record.key;
    row.method = record.method;
    row.src = record.src;
    row.dst = record.dst;
    row.params = params_text(record.params);
    // numa is left out where it names an endpoint; a peer-off copy's binding is not one.
    if (record.params.count("numa") && !has_numa_endpoint(record))
        row.params += (row.params.empty() ? "" : " ") + std::string("numa=") + record.params.at("numa");
    if (record.context.is_object() && record.context.contains("timing_mode") &&
        record.context["timing_mode"].is_string())
        row.timing = record.context["timing_mode"].get<std::string>();
    row.metrics = curve_metrics(record, row_of_method, topology, options);
    if (!points_are_path_bandwidth(record)) {
        // Never a queueing delay printed as the link's rate: times only.
        row.metrics.large.reset();
        row.metrics.best.reset();
        row.metrics.fraction_of_limit.reset();
        const std::string why = headline_why(record);
        row.headline_note = "points are " + record.context["headline"]["metric"].get<std::string>() +
                            (why.empty() ? "" : " (" + why + ")") + ", not the path's bandwidth: hwcomm analyze";
    }
    row.measured_as = record.measured_as;
    row.in_round = record.context.is_object() && record.context.contains("round");
    row.remeasured_note = remeasured_note(record);
    row.recheck_note = recheck_note(record);
    row.twice_note = measured_twice_note(record);
    row.pass_note = second_pass_note(record);
    row.gate_note = dropped_gate_note(record);

    if (row_of_method && is_duplex(*row_of_method, record.params))
        row.duplex = to_string(row_of_method->duplex.convention);
    std::set<std::string> measured;  // labels of the lanes that make the record's numbers
    for (const LaneSpec& l : record.lanes)
        if (l.role != "load") measured.insert(l.label);
    row.lanes = std::max<std::size_t>(1, measured.size());

    int failed = 0, unverified = 0;
    const Point* smallest = nullptr;
    const bool imported = record.provenance.is_object() && record.provenance.value("kind", "") == "imported";
    for (const Point& p : record.points) {
        if (p.status != "ok") {
            ++failed;
            continue;
        }
        if (!p.verified && !imported) ++unverified;
        if (!(p.bandwidth_gbps > 0)) continue;
        if (std::isfinite(p.stats.cv) && p.stats.n > 1 && (!row.max_cv || p.stats.cv > *row.max_cv)) {
            row.max_cv = p.stats.cv;
            row.max_cv_bytes = p.bytes;
        }
        if (!row.peak_gbps || p.bandwidth_gbps > *row.peak_gbps) {
            row.peak_gbps = p.bandwidth_gbps;
            row.peak_bytes = p.bytes;
            const auto f = p.extras.find("fwd_gbps");
            const auto r = p.extras.find("rev_gbps");
            row.fwd_gbps = f == p.extras.end() ? std::nullopt : std::optional<double>(f->second);
            row.rev_gbps = r == p.extras.end() ? std::nullopt : std::optional<double>(r->second);
            row.lane_min_gbps.reset(), row.lane_max_gbps.reset();
            for (const LanePoint& l : p.lanes)
                if (measured.count(l.label)) {
                    row.lane_min_gbps = std::min(row.lane_min_gbps.value_or(l.bandwidth_gbps), l.bandwidth_gbps);
                    row.lane_max_gbps = std::max(row.lane_max_gbps.value_or(l.bandwidth_gbps), l.bandwidth_gbps);
                }
        }
        if (!smallest || p.bytes < smallest->bytes) smallest = &p;
        if (p.bytes == 4) row.latency_4b_us = p.stats.median * 1e6;
        if (p.bytes == 8) row.latency_8b_us = p.stats.median * 1e6;
    }
    if (!row.headline_note.empty()) row.peak_gbps.reset();
    if (smallest) {
        row.small_latency_us = smallest->stats.median * 1e6;
        row.small_bytes = smallest->bytes;
    }
    if (record.status == "skipped")
        row.status = "skipped: " + record.error;
    else if (record.status != "ok")
        row.status = "error: " + record.error;
    else if (failed)
        row.status = std::to_string(failed) + " points failed";
    else if (unverified)
        row.status = std::to_string(unverified) + " points unverified";
    return row;
}

namespace {

// A cluster file's node-local record against its node's graph (% of link per
// node), shown with its qualified ids; nullopt for any other record.
std::optional<SummaryRow> summarize_on_node(const Record& r, const MethodRow* row_of_method,
                                            const std::vector<std::string>& names,
                                            const std::map<std::string, Graph>& graphs, const CurveOptions& options) {
    const auto local = node_local_record(r, names);
    if (!local) return std::nullopt;
    const auto g = graphs.find(local->node);
    if (g == graphs.end()) return std::nullopt;
    SummaryRow row = summarize(local->record, row_of_method, &g->second, options);
    row.key = r.key;
    row.src = r.src;
    row.dst = r.dst;
    return row;
}

}  // namespace

std::vector<SummaryRow> summarize(const ResultsFile& file, const std::string& source, const CurveOptions& options) {
    const auto topology = topology_of(file);
    const MethodCatalog catalog = catalog_for(file.meta);
    std::vector<std::string> names;
    std::map<std::string, Graph> node_graphs;  // a cluster file: each node's own graph
    try {
        if (const auto cluster = cluster_section_of(file)) {
            names = cluster->node_names();
            node_graphs = cluster_node_graphs(*cluster);
        }
    } catch (const UsageError&) {  // a malformed cluster section: rows without a stated limit
    }
    std::vector<SummaryRow> rows;
    rows.reserve(file.records.size());
    for (const Record& r : file.records) {
        const MethodRow* row = catalog.find(r.method);
        auto on_node = node_graphs.empty() ? std::nullopt : summarize_on_node(r, row, names, node_graphs, options);
        rows.push_back(on_node ? std::move(*on_node) : summarize(r, row, topology ? &*topology : nullptr, options));
        rows.back().source = source;
    }
    return rows;
}

std::string format_time(double seconds) {
    char buf[32];
    if (seconds < 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
    else if (seconds < 1)
        std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g s", seconds);
    return buf;
}

namespace {

std::string pad(const std::string& s, std::size_t width, bool right = false) {
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string clip(const std::string& s, std::size_t width) {
    return s.size() <= width ? s : s.substr(0, width - 1) + "~";
}

// Parameters without their keys where the value says enough ("pinned").
std::string compact_params(const std::string& params) {
    std::string out = params;
    for (const char* key : {"host_mem=", "src_mem=", "dst_mem=", "threads="}) {
        for (std::size_t at; (at = out.find(key)) != std::string::npos;) out.erase(at, std::string(key).size());
    }
    return out;
}

// "PCIe 5.0 x16" -> "PCIe5x16", "2 x NVLink 4.0 x18" -> "2xNV4x18", "staged: " dropped.
std::string compact_link(std::string what) {
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"staged: ", ""}, {"PCIe link", "PCIe"}, {"NVLink ", "NV"}, {".0", ""}, {" x", "x"}, {"2 x", "2x"}, {"PCIe ", "PCIe"}})
        for (std::size_t at; (at = what.find(from)) != std::string::npos;) what.replace(at, from.size(), to);
    return what;
}

std::string status_of(const SummaryRow& r) {
    std::string s = r.status.rfind("error:", 0) == 0 ? "error" : r.status.rfind("skipped:", 0) == 0 ? "skipped" : r.status;
    std::size_t suspects = 0;
    for (const SuspectPoint& p : r.metrics.suspects)
        if (p.kind != "failed") ++suspects;
    if (suspects) s = (s == "ok" ? "" : s + ", ") + std::to_string(suspects) + " suspect";
    if (!r.timing.empty() && r.timing != "event") s += " " + r.timing;  // "wall": timed by the host clock
    // How the plan measured it: a confirmation's few sizes, or a promotion (an anomaly).
    if (r.measured_as == "confirmed") {
        const char* as = r.in_round ? "round conf" : "confirmed";
        s = s == "ok" ? as : s + (r.in_round ? " round conf" : " conf");
    }
    if (r.measured_as == "promoted") s = s == "ok" ? "PROMOTED" : s + " PROMOTED";
    return s;
}

// A point whose samples spread this much is named in the notes with its size.
constexpr double kNotedCv = 0.10;

// What a duplex record's figures count, in both peers' words.
std::string duplex_note(const SummaryRow& r) {
    const std::string fwd = format_fixed(r.fwd_gbps.value_or(0), 1), rev = format_fixed(r.rev_gbps.value_or(0), 1);
    if (r.duplex == to_string(DuplexConvention::OneDirectionUnderOpposite))
        return "large and best are one direction under opposite traffic (nvbandwidth's bidirectional convention)" +
               (r.fwd_gbps || r.rev_gbps ? "; at the best point fwd " + fwd + ", rev " + rev + " GB/s" : std::string());
    return "large and best are both directions' bytes over the time of both (the sum, nvloom's convention)" +
           (r.fwd_gbps || r.rev_gbps ? "; one direction under opposite traffic (nvbandwidth's) at the best point: fwd " +
                                           fwd + ", rev " + rev + " GB/s"
                                     : std::string());
}

}  // namespace

std::string format_summary_table(const std::vector<SummaryRow>& rows) {
    bool sources = false;
    for (const SummaryRow& r : rows) sources = sources || !r.source.empty();
    std::vector<std::vector<std::string>> lines;
    lines.push_back({"#", "method", "src->dst", "params", "large", "best @size", "% link", "small", "cv", "status"});
    for (const SummaryRow& r : rows) {
        const CurveMetrics& m = r.metrics;
        std::string large = m.large ? format_fixed(m.large->gbps, 1) + (m.large->last_octave ? "^" : "") +
                                          (m.large->cache_resident ? " c" : "")
                                    : "-";
        std::string best = "-";
        if (m.best) best = format_fixed(m.best->gbps, 1) + " @" + short_size(m.best->bytes) + (m.best->cache_resident ? " c" : "");
        std::string link = "-";
        if (m.fraction_of_limit) link = format_fixed(*m.fraction_of_limit * 100, 0) + "% " + compact_link(m.limit->what);
        std::string small = "-";
        if (m.small) {
            small = format_time(m.small->seconds) + "@" + format_size(m.small->bytes);
            small.erase(std::remove(small.begin(), small.end(), ' '), small.end());
            if (const auto ib = small.find("iB"); ib != std::string::npos) small.erase(ib, 2);  // "64K" as in best
        }
        const std::string params = compact_params(r.params);
        // Whole percents from 10% up: the column stays narrow, and one more digit would not change a verdict.
        const std::string cv = r.max_cv ? format_fixed(*r.max_cv * 100, *r.max_cv < 0.1 ? 1 : 0) + "%" : "-";
        lines.push_back({clip(r.source, 12), clip(r.method, 16), clip(r.src + "->" + r.dst, 13),
                         clip(params.empty() ? "-" : params, sources ? 14 : 16), large, best, clip(link, 12), small, cv,
                         clip(status_of(r), 16)});
    }
    const std::size_t cols = lines.front().size();
    std::vector<std::size_t> w(cols, 0);
    for (const auto& l : lines)
        for (std::size_t i = 0; i < cols; ++i) w[i] = std::max(w[i], l[i].size());
    std::ostringstream out;
    for (const auto& l : lines) {
        std::string line;
        for (std::size_t i = sources ? 0 : 1; i < cols; ++i) {
            const bool right = i >= 4 && i <= 8;
            line += (i == cols - 1 ? l[i] : pad(l[i], w[i], right) + (i == 0 ? " " : "  "));
        }
        out << line << "\n";
    }
    out << "GB/s = 1e9 B/s. large = large-transfer GB/s: median of the sizes >= 64 MiB on the final plateau\n"
           "(^: of the last octave measured; c: even the largest size fits the cache, so it is no memory figure:\n"
           "measure beyond the cache with --max-size); best @size: c = the working set fits the cache (CPU LLC / GPU L2;\n"
           "disk-read: the page cache held the file's bytes) and beats the large-transfer rate; % link = large /\n"
           "the path's theoretical bottleneck (staged for peer-off copies); small = time per transfer at the\n"
           "smallest size, launch overhead included (GPU paths only); cv = the largest coefficient of variation\n"
           "(stdev/mean of one point's samples) over the record's points (export: every point's); status \"wall\":\n"
           "timed by the host clock, not CUDA events; \"confirmed\": a few sizes within its class representative's\n"
           "spread (between them its curve has the representative's shape); \"round conf\": confirmed as one lane of\n"
           "a round of pairs measured at once over links they do not share; \"PROMOTED\": outside that spread, then\n"
           "swept in full.\n";
    std::vector<std::string> notes;
    for (const SummaryRow& r : rows) {
        const std::string who = "  " + (r.source.empty() ? "" : r.source + ": ") + r.key;
        // Points of one kind are listed together: one line per record and kind.
        std::map<std::string, std::vector<const SuspectPoint*>> by_kind;
        for (const SuspectPoint& p : r.metrics.suspects) by_kind[p.kind].push_back(&p);
        for (const auto& [kind, list] : by_kind) {
            std::string sizes;
            for (const SuspectPoint* p : list) sizes += (sizes.empty() ? "@" : ", ") + format_size(p->bytes);
            const bool same_reason = kind == "not-converged" || list.size() == 1;
            notes.push_back(who + " " + sizes + " " + kind + ": " +
                            (same_reason ? list.front()->reason : list.front()->reason + " (first of " +
                                                                      std::to_string(list.size()) + ")"));
        }
        if (r.status.rfind("error:", 0) == 0 || r.status.rfind("skipped:", 0) == 0) notes.push_back(who + ": " + r.status);
        if (!r.headline_note.empty()) notes.push_back(who + ": " + r.headline_note);
        if (!r.remeasured_note.empty()) notes.push_back(who + ": " + r.remeasured_note);
        if (!r.recheck_note.empty()) notes.push_back(who + ": " + r.recheck_note);
        if (!r.twice_note.empty()) notes.push_back(who + ": " + r.twice_note);
        if (!r.pass_note.empty()) notes.push_back(who + ": " + r.pass_note);
        if (!r.gate_note.empty()) notes.push_back(who + ": " + r.gate_note);
        if (r.max_cv && *r.max_cv >= kNotedCv)
            notes.push_back(who + ": samples spread most at " + short_size(r.max_cv_bytes) + " (cv " +
                            format_fixed(*r.max_cv * 100, 0) + "%)");
        if (!r.duplex.empty()) notes.push_back(who + ": " + duplex_note(r));
        else if (r.lanes > 1 && r.lane_min_gbps)
            notes.push_back(who + ": " + std::to_string(r.lanes) + " lanes started together; large and best are every "
                            "lane's bytes over the common window (their sum); at the best point each lane " +
                            format_fixed(*r.lane_min_gbps, 1) + ".." + format_fixed(*r.lane_max_gbps, 1) +
                            " GB/s under the others' traffic");
    }
    if (!notes.empty()) out << "\nnotes and suspect points:\n";
    for (const std::string& n : notes) out << n << "\n";
    return out.str();
}

}  // namespace hwcomm::analyze
