#include "io/tidy_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "catalog/method_catalog.hpp"
#include "catalog/row_json.hpp"
#include "core/error.hpp"
#include "io/cluster_section.hpp"

namespace hwcomm {

namespace {

using json = nlohmann::json;
using Row = std::map<std::string, json>;

// The fixed columns, in order; then param_*, axis_*, extra_*, metric_* sorted.
const std::vector<std::string>& fixed_columns() {
    static const std::vector<std::string> cols{
        "file", "host", "revision", "tool_version", "method", "src", "dst", "record_status", "timing_mode",
        "row_kind", "variant", "workers", "lanes", "lane", "lane_src", "lane_dst", "lane_role", "bytes",
        "bytes_per_rep", "status", "verified", "stop_reason", "n", "min_s", "q1_s", "median_s", "q3_s", "max_s",
        "mean_s", "stdev_s", "cv", "ci95_low_s", "ci95_high_s", "bandwidth_gbps", "peak_bandwidth_gbps",
        "duplex_convention", "duplex_fwd_gbps", "duplex_rev_gbps", "duplex_total_gbps", "best_variant", "error"};
    return cols;
}

// NaN (an absent statistic of an imported aggregate) is null.
json json_number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

void put_stats(Row& row, const SampleStats& s) {
    row["n"] = s.n;
    if (s.n == 0) return;  // a failed point: no statistics
    row["min_s"] = json_number(s.min), row["q1_s"] = json_number(s.q1), row["median_s"] = json_number(s.median);
    row["q3_s"] = json_number(s.q3), row["max_s"] = json_number(s.max), row["mean_s"] = json_number(s.mean);
    row["stdev_s"] = json_number(s.stdev), row["cv"] = json_number(s.cv);
    row["ci95_low_s"] = json_number(s.ci95_low), row["ci95_high_s"] = json_number(s.ci95_high);
}

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A cluster file's node names and their hosts: a record's row names the host
// of its (source) node, not rank 0's. Empty for a file of one node.
struct NodeHosts {
    std::vector<std::string> names;
    std::map<std::string, std::string> host_of;
};

NodeHosts node_hosts(const ResultsFile& file) {
    NodeHosts out;
    try {
        if (const auto cluster = cluster_section_of(file))
            for (const auto& n : cluster->nodes) {
                out.names.push_back(n.name);
                out.host_of[n.name] = n.hostname;
            }
    } catch (const UsageError&) {  // a malformed cluster section: the file's own host
    }
    return out;
}

// The columns every row of a record shares.
Row record_row(const ExportSource& src, const NodeHosts& hosts, const Record& r) {
    const json& meta = src.file->meta;
    Row row;
    row["file"] = src.name;
    row["host"] = meta.is_object() ? meta.value("host", "") : "";
    if (const auto node = split_endpoint_id(r.src, hosts.names).node; !node.empty()) row["host"] = hosts.host_of.at(node);
    const bool has_revision = r.provenance.is_object() && r.provenance.contains("revision");
    row["revision"] = has_revision ? r.provenance.at("revision")
                                   : json(meta.is_object() ? meta.value("git_revision", "") : "");
    row["tool_version"] = meta.is_object() ? meta.value("tool_version", "") : "";
    row["method"] = r.method, row["src"] = r.src, row["dst"] = r.dst;
    row["record_status"] = r.status;
    // CUDA methods record event or wall; CPU methods time with the host clock.
    row["timing_mode"] = r.context.is_object() && r.context.contains("timing_mode") ? r.context.at("timing_mode")
                                                                                     : json("wall");
    row["lanes"] = std::max<std::size_t>(r.lanes.size(), 1);
    for (const auto& [k, v] : r.params) row["param_" + k] = v;
    return row;
}

Row point_row(Row row, const Record& r, const MethodRow* method, const Point& p) {
    row["row_kind"] = "point";
    row["bytes"] = p.bytes;
    row["bytes_per_rep"] = p.bytes_per_rep;
    row["status"] = p.status, row["verified"] = p.verified, row["stop_reason"] = p.stop_reason;
    put_stats(row, p.stats);
    if (p.status == "ok") row["bandwidth_gbps"] = json_number(p.bandwidth_gbps), row["peak_bandwidth_gbps"] = json_number(p.peak_bandwidth_gbps);
    row["best_variant"] = p.best_variant;
    if (all_digits(p.best_variant)) row["workers"] = std::stoul(p.best_variant);
    row["error"] = p.error;
    for (const auto& [k, v] : p.axes) row["axis_" + k] = v;
    for (const auto& [k, v] : p.extras) {
        if (k == "fwd_gbps") row["duplex_fwd_gbps"] = json_number(v);
        else if (k == "rev_gbps") row["duplex_rev_gbps"] = json_number(v);
        else row["extra_" + k] = json_number(v);
    }
    // Both conventions of a duplex figure: each direction under opposite traffic
    // (fwd, rev: nvbandwidth's) and both directions' bytes over the time of
    // both (total: nvloom's); duplex_convention says which bandwidth_gbps is.
    if (method && is_duplex(*method, r.params) && p.status == "ok") {
        row["duplex_convention"] = to_string(method->duplex.convention);
        // Never a sum of two rates: the total only where the point itself is both directions' bytes over time.
        if (method->duplex.convention == DuplexConvention::Sum) row["duplex_total_gbps"] = json_number(p.bandwidth_gbps);
    }
    for (const auto& [k, m] : p.metrics) row["metric_" + k] = json_number(m.value), row["metric_" + k + "_unit"] = m.unit;
    return row;
}

void add_record_rows(const ExportSource& src, const NodeHosts& hosts, const Record& r, const MethodRow* method,
                     std::vector<Row>& rows) {
    const Row shared = record_row(src, hosts, r);
    for (const auto& p : r.points) {
        Row point = point_row(shared, r, method, p);
        rows.push_back(point);
        // Variants and lanes repeat the point's coordinates (bytes, axes), not its figures.
        Row base = shared;
        for (const auto& [k, v] : point)
            if (k == "bytes" || k == "status" || k == "verified" || k.rfind("axis_", 0) == 0) base[k] = v;
        for (const auto& v : p.variants) {
            Row row = base;
            row["row_kind"] = "variant", row["variant"] = v.variant, row["stop_reason"] = v.stop_reason;
            if (all_digits(v.variant)) row["workers"] = std::stoul(v.variant);
            row["bytes_per_rep"] = p.bytes_per_rep;
            put_stats(row, v.stats);
            row["bandwidth_gbps"] = json_number(v.bandwidth_gbps);
            rows.push_back(row);
        }
        for (const auto& lane : p.lanes) {
            Row row = base;
            row["row_kind"] = "lane", row["lane"] = lane.label, row["bytes_per_rep"] = lane.bytes_per_rep;
            for (const auto& spec : r.lanes)
                if (spec.label == lane.label) row["lane_src"] = spec.src, row["lane_dst"] = spec.dst, row["lane_role"] = spec.role;
            put_stats(row, lane.stats);
            row["bandwidth_gbps"] = json_number(lane.bandwidth_gbps);
            rows.push_back(row);
        }
    }
}

std::vector<std::string> columns_of(const std::vector<Row>& rows) {
    std::vector<std::string> cols = fixed_columns();
    std::set<std::string> dynamic;
    for (const auto& row : rows)
        for (const auto& [k, v] : row)
            if (std::find(cols.begin(), cols.end(), k) == cols.end()) dynamic.insert(k);
    cols.insert(cols.end(), dynamic.begin(), dynamic.end());
    return cols;
}

// RFC 4180 quoting; numbers with 9 significant digits; null is an empty field.
std::string csv_cell(const json& v) {
    if (v.is_null()) return "";
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_float()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
        return buf;
    }
    const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string export_tidy(const std::vector<ExportSource>& sources, ExportFormat format) {
    std::vector<Row> rows;
    for (const auto& src : sources) {
        const NodeHosts hosts = node_hosts(*src.file);
        const MethodCatalog catalog = catalog_for(src.file->meta);
        for (const auto& r : src.file->records) add_record_rows(src, hosts, r, catalog.find(r.method), rows);
    }
    const auto cols = columns_of(rows);
    std::ostringstream out;
    if (format == ExportFormat::Csv) {
        for (std::size_t i = 0; i < cols.size(); ++i) out << (i ? "," : "") << cols[i];
        out << "\n";
    }
    // JSONL keys in column order, as the CSV header has them.
    const auto dump = [](const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); };
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < cols.size(); ++i) {
            const auto it = row.find(cols[i]);
            const json value = it == row.end() ? json(nullptr) : it->second;
            if (format == ExportFormat::Csv) out << (i ? "," : "") << csv_cell(value);
            else out << (i ? "," : "{") << dump(cols[i]) << ":" << dump(value);
        }
        out << (format == ExportFormat::Jsonl ? "}\n" : "\n");
    }
    return out.str();
}

}  // namespace hwcomm
