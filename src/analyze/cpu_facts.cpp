#include "analyze/cpu_facts.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "analyze/summary.hpp"
#include "catalog/method_catalog.hpp"
#include "catalog/method_names.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

namespace {

const nlohmann::json& object_at(const nlohmann::json& j, const char* key) {
    static const nlohmann::json empty = nlohmann::json::object();
    return j.is_object() && j.contains(key) && j[key].is_object() ? j[key] : empty;
}

std::uint64_t u64_at(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number_unsigned() ? j[key].get<std::uint64_t>() : 0;
}

std::optional<double> metric(const Point& p, const std::string& name) {
    const auto it = p.metrics.find(name);
    if (it == p.metrics.end()) return std::nullopt;
    return it->second.value;
}

const Point* largest_ok(const Record& r) {
    const Point* best = nullptr;
    for (const Point& p : r.points)
        if (p.status == "ok" && (!best || p.bytes > best->bytes)) best = &p;
    return best;
}

// Median latency over the rungs in (lo, hi]; nullopt when none lies there.
std::optional<double> window(const std::vector<std::pair<std::uint64_t, double>>& rungs, std::uint64_t lo, std::uint64_t hi) {
    std::vector<double> v;
    for (const auto& [bytes, ns] : rungs)
        if (bytes > lo && bytes <= hi) v.push_back(ns);
    if (v.empty()) return std::nullopt;
    return median_value(v);
}

std::optional<std::uint64_t> step_above(const std::vector<std::pair<std::uint64_t, double>>& rungs,
                                        const std::optional<double>& level, std::uint64_t from) {
    if (!level) return std::nullopt;
    for (const auto& [bytes, ns] : rungs)
        if (bytes > from && ns >= 1.5 * *level) return bytes;
    return std::nullopt;
}

void add_cell(NodeMatrix& m, const std::string& row, const std::string& col, double value, std::uint64_t bytes) {
    if (std::find(m.rows.begin(), m.rows.end(), row) == m.rows.end()) m.rows.push_back(row);
    if (std::find(m.cols.begin(), m.cols.end(), col) == m.cols.end()) m.cols.push_back(col);
    m.cells[{row, col}] = value;
    m.bytes = m.cells.size() == 1 || m.bytes == bytes ? bytes : 0;
}

void sort_axes(NodeMatrix& m) {
    std::sort(m.rows.begin(), m.rows.end());
    std::sort(m.cols.begin(), m.cols.end());
}

}  // namespace

bool in_cpu_section(const MethodRow* row) {
    return row && (row->view == MethodView::CpuLatency || row->view == MethodView::CpuLoadedLatency ||
                   row->view == MethodView::CpuMix);
}

bool is_cpu_section_method(const std::string& m) { return in_cpu_section(builtin_catalog().find(m)); }

bool is_cpu_bandwidth_method(const std::string& m) {
    const MethodRow* row = builtin_catalog().find(m);
    return row && row->family == MethodFamily::CpuMemory && row->view == MethodView::Curve;
}

std::vector<CpuBandwidthRow> cpu_bandwidth_rows(const std::vector<Record>& records) {
    std::vector<CpuBandwidthRow> out;
    for (const Record& r : records) {
        if (!is_cpu_bandwidth_method(r.method)) continue;
        const Point* p = largest_ok(r);
        if (!p || !(p->bandwidth_gbps > 0)) continue;
        CpuBandwidthRow row;
        row.method = r.method;
        row.src = r.src;
        row.dst = r.dst;
        row.params = params_text(r.params);
        row.bytes = p->bytes;
        row.median_gbps = p->bandwidth_gbps;
        row.best_gbps = p->peak_bandwidth_gbps > 0 ? p->peak_bandwidth_gbps : p->bandwidth_gbps;
        const nlohmann::json& conv = object_at(r.context, "byte_convention");
        if (conv.contains("stream_factor") && conv["stream_factor"].is_number_integer())
            row.stream_factor = conv["stream_factor"].get<int>();
        if (conv.contains("stream_kernel") && conv["stream_kernel"].is_string())
            row.stream_kernel = conv["stream_kernel"].get<std::string>();
        row.variant = p->best_variant;
        if (row.variant.empty() && r.context.is_object() && r.context.contains("workers") && r.context["workers"].is_number())
            row.variant = std::to_string(r.context["workers"].get<long long>());
        row.samples = p->stats.n;
        row.ci_half_width = p->stats.relative_ci_half_width();
        row.stop_reason = p->stop_reason;
        const nlohmann::json& k = object_at(r.context, "kernels");
        row.isa = k.contains("isa") && k["isa"].is_string() ? k["isa"].get<std::string>() : "";
        out.push_back(std::move(row));
    }
    return out;
}

namespace {

constexpr double kSameLevel = 0.10;  // within 10% of the largest working set's latency
constexpr std::size_t kMemoryRungs = 3;

void note_memory_level(CpuLatencyLadder& l) {
    const auto& rungs = l.ns_by_working_set;
    if (rungs.size() < kMemoryRungs || !(rungs.back().second > 0)) return;
    if (l.l2 && rungs.back().first < 4 * l.l2) return;  // the ladder never left the caches
    const double top = rungs.back().second;
    std::size_t first = rungs.size() - 1;
    while (first > 0 && std::abs(rungs[first - 1].second / top - 1) <= kSameLevel) --first;
    if (rungs.size() - first < kMemoryRungs) return;
    std::vector<double> level;
    for (std::size_t i = first; i < rungs.size(); ++i) level.push_back(rungs[i].second);
    l.memory_from = rungs[first].first;
    l.memory_ns = median_value(std::move(level));
    l.llc_window_reads_memory = l.llc > 2 * l.l2 && *l.memory_from <= l.llc / 2;
}

}  // namespace

CpuLatencyLadder cpu_latency_ladder(const Record& r) {
    CpuLatencyLadder l;
    l.src = r.src;
    l.dst = r.dst;
    for (const Point& p : r.points)
        if (p.status == "ok")
            if (auto ns = metric(p, "latency_ns")) l.ns_by_working_set.emplace_back(p.bytes, *ns);
    std::sort(l.ns_by_working_set.begin(), l.ns_by_working_set.end());
    const nlohmann::json& caches = object_at(r.context, "caches");
    l.l1d = u64_at(caches, "l1d_bytes");
    l.l2 = u64_at(caches, "l2_bytes");
    l.llc = u64_at(caches, "llc_bytes");
    const auto& rungs = l.ns_by_working_set;
    if (l.l1d) l.l1_ns = window(rungs, 0, l.l1d / 2);
    if (l.l2 && l.l2 > l.l1d) l.l2_ns = window(rungs, 2 * l.l1d, l.l2 / 2);
    if (l.llc && l.llc > l.l2) l.llc_ns = window(rungs, 2 * l.l2, l.llc / 2);
    if (l.llc) l.dram_ns = window(rungs, 4 * l.llc - 1, UINT64_MAX);
    l.l2_step = step_above(rungs, l.l1_ns, l.l1d / 2);
    l.llc_step = step_above(rungs, l.l2_ns, l.l2 / 2);
    l.dram_step = step_above(rungs, l.llc_ns, l.llc / 2);
    note_memory_level(l);
    const nlohmann::json& hp = object_at(object_at(r.context, "chase_buffer"), "huge_pages");
    if (u64_at(hp, "buffer_bytes") > 0)
        l.huge_page_share = static_cast<double>(u64_at(hp, "backed_bytes")) / static_cast<double>(u64_at(hp, "buffer_bytes"));
    return l;
}

NodeMatrix cpu_latency_matrix(const std::vector<Record>& records) {
    NodeMatrix m;
    for (const Record& r : records) {
        if (r.method != method_name::kCpuLatency) continue;
        const Point* p = largest_ok(r);
        if (!p) continue;
        if (auto ns = metric(*p, "latency_ns")) add_cell(m, r.src, r.dst, *ns, p->bytes);
    }
    sort_axes(m);
    return m;
}

std::vector<LoadedLatencyCurve> cpu_loaded_latency(const std::vector<Record>& records) {
    std::vector<LoadedLatencyCurve> out;
    for (const Record& r : records) {
        if (r.method != method_name::kCpuLoadedLatency) continue;
        LoadedLatencyCurve c{r.src, r.dst, 0, {}};
        for (const Point& p : r.points) {
            const auto ns = metric(p, "latency_ns");
            if (p.status != "ok" || !ns) continue;
            c.bytes = p.bytes;
            c.points.push_back({static_cast<unsigned>(metric(p, "load_workers").value_or(0)), *ns,
                                metric(p, "load_gbps").value_or(0)});
        }
        std::sort(c.points.begin(), c.points.end(),
                  [](const auto& a, const auto& b) { return a.load_workers < b.load_workers; });
        if (!c.points.empty()) out.push_back(std::move(c));
    }
    return out;
}

std::map<std::string, NodeMatrix> cpu_mix_matrices(const std::vector<Record>& records) {
    std::map<std::string, NodeMatrix> out;
    for (const Record& r : records) {
        if (r.method != method_name::kCpuBandwidthMix) continue;
        for (const Point& p : r.points) {
            const auto it = p.axes.find("mix");
            if (p.status != "ok" || it == p.axes.end() || !it->second.is_string() || !(p.bandwidth_gbps > 0)) continue;
            add_cell(out[it->second.get<std::string>()], r.src, r.dst, p.bandwidth_gbps, p.bytes);
        }
    }
    for (auto& [mix, m] : out) sort_axes(m);
    return out;
}

std::optional<DramStatement> cpu_dram(const std::vector<Record>& records) {
    for (const Record& r : records) {
        const nlohmann::json& d = object_at(r.context, "dram");
        if (d.empty()) continue;
        DramStatement s;
        if (d.contains("theoretical_gbps") && d["theoretical_gbps"].is_number())
            s.theoretical_gbps = d["theoretical_gbps"].get<double>();
        s.note = d.value("note", "") + (d.contains("source") && d["source"].is_string() && s.theoretical_gbps
                                             ? " (" + d["source"].get<std::string>() + ")"
                                             : "");
        return s;
    }
    return std::nullopt;
}

namespace {

nlohmann::json matrix_json(const NodeMatrix& m) {
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& [key, v] : m.cells) cells.push_back({{"src", key.first}, {"dst", key.second}, {"value", v}});
    return {{"rows", m.rows}, {"cols", m.cols}, {"cells", cells}, {"bytes", m.bytes}};
}

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }
nlohmann::json optional_json(const std::optional<std::uint64_t>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json cpu_facts_json(const std::vector<Record>& records) {
    nlohmann::json bw = nlohmann::json::array();
    for (const auto& r : cpu_bandwidth_rows(records)) {
        nlohmann::json j{{"method", r.method}, {"src", r.src}, {"dst", r.dst}, {"params", r.params},
                         {"bytes", r.bytes}, {"median_gbps", r.median_gbps}, {"best_gbps", r.best_gbps},
                         {"variant", r.variant}, {"samples", r.samples}, {"ci95_half_width", r.ci_half_width},
                         {"stop_reason", r.stop_reason}, {"isa", r.isa}};
        if (r.stream_factor > 0) {
            j["stream_kernel"] = r.stream_kernel;
            j["stream_median_gbps"] = r.median_gbps * r.stream_factor;
            j["stream_best_gbps"] = r.best_gbps * r.stream_factor;
        }
        bw.push_back(std::move(j));
    }
    nlohmann::json ladders = nlohmann::json::array();
    for (const Record& r : records) {
        if (r.method != method_name::kCpuLatency) continue;
        const CpuLatencyLadder l = cpu_latency_ladder(r);
        nlohmann::json rungs = nlohmann::json::array();
        for (const auto& [bytes, ns] : l.ns_by_working_set) rungs.push_back({{"bytes", bytes}, {"ns", ns}});
        ladders.push_back({{"src", l.src}, {"dst", l.dst}, {"rungs", rungs}, {"l1d_bytes", l.l1d}, {"l2_bytes", l.l2},
                           {"llc_bytes", l.llc}, {"l1_ns", optional_json(l.l1_ns)}, {"l2_ns", optional_json(l.l2_ns)},
                           {"llc_ns", optional_json(l.llc_ns)}, {"dram_ns", optional_json(l.dram_ns)},
                           {"l2_step_bytes", optional_json(l.l2_step)}, {"llc_step_bytes", optional_json(l.llc_step)},
                           {"dram_step_bytes", optional_json(l.dram_step)},
                           {"memory_from_bytes", optional_json(l.memory_from)}, {"memory_ns", optional_json(l.memory_ns)},
                           {"llc_window_reads_memory", l.llc_window_reads_memory},
                           {"huge_page_share", optional_json(l.huge_page_share)}});
    }
    nlohmann::json loaded = nlohmann::json::array();
    for (const auto& c : cpu_loaded_latency(records)) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& p : c.points)
            pts.push_back({{"load_workers", p.load_workers}, {"latency_ns", p.latency_ns}, {"load_gbps", p.load_gbps}});
        loaded.push_back({{"src", c.src}, {"dst", c.dst}, {"bytes", c.bytes}, {"points", pts}});
    }
    nlohmann::json mixes = nlohmann::json::object();
    for (const auto& [mix, m] : cpu_mix_matrices(records)) mixes[mix] = matrix_json(m);
    nlohmann::json dram = nullptr;
    if (const auto d = cpu_dram(records)) dram = {{"theoretical_gbps", optional_json(d->theoretical_gbps)}, {"note", d->note}};
    return {{"bandwidth", bw}, {"latency_matrix", matrix_json(cpu_latency_matrix(records))}, {"ladders", ladders},
            {"loaded_latency", loaded}, {"mix_matrices", mixes}, {"dram", dram}};
}

}  // namespace hwcomm::analyze
