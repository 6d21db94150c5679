#include "analyze/compare.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "analyze/curve_metrics.hpp"
#include "analyze/summary.hpp"
#include "core/error.hpp"
#include "io/cluster_section.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::analyze {

namespace {

const Point* point_at(const Record& r, std::uint64_t bytes) {
    for (const Point& p : r.points)
        if (p.bytes == bytes && p.status == "ok") return &p;
    return nullptr;
}

// Whether the 95% CIs of the median time at one size overlap.
std::optional<bool> overlap(const Point* a, const Point* b) {
    if (!a || !b) return std::nullopt;
    const double al = a->stats.ci95_low, ah = a->stats.ci95_high, bl = b->stats.ci95_low, bh = b->stats.ci95_high;
    if (std::isnan(al) || std::isnan(ah) || std::isnan(bl) || std::isnan(bh) || ah <= 0 || bh <= 0) return std::nullopt;
    return al <= bh && bl <= ah;
}

void count_gpus(const nlohmann::json& topology, std::map<std::string, int>& models) {
    if (topology.is_object() && topology.contains("vertices") && topology["vertices"].is_array())
        for (const auto& v : topology["vertices"])
            if (v.is_object() && v.value("kind", "") == "gpu" && v.contains("gpu") && v["gpu"].is_object())
                ++models[v["gpu"].value("model", "?")];
}

// A cluster file's section, or nullopt (also when it is malformed: compare shows records, not the file's faults).
std::optional<ClusterSection> cluster_or_none(const ResultsFile& f) {
    try {
        return cluster_section_of(f);
    } catch (const UsageError&) {
        return std::nullopt;
    }
}

// "node0 ok, node3 error"; "" for a file of one node.
std::string nodes_of(const ResultsFile& f) {
    std::string out;
    if (const auto c = cluster_or_none(f))
        for (const ClusterNodeInfo& n : c->nodes) out += (out.empty() ? "" : ", ") + n.name + " " + n.status;
    return out;
}

std::string gpus_of(const ResultsFile& f) {
    std::map<std::string, int> models;
    count_gpus(f.topology, models);
    if (const auto c = cluster_or_none(f))  // a cluster file: the GPUs of all its nodes
        for (const ClusterNodeInfo& n : c->nodes) count_gpus(n.topology, models);
    std::string out;
    for (const auto& [m, n] : models) out += (out.empty() ? "" : ", ") + std::to_string(n) + "x " + m;
    return out.empty() ? "none" : out;
}

std::string text_at(const nlohmann::json& j, const char* a, const char* b = nullptr) {
    if (!j.is_object() || !j.contains(a)) return "";
    const auto& v = b ? j[a] : j[a];
    if (b) return v.is_object() && v.contains(b) && v[b].is_string() ? v[b].get<std::string>() : "";
    return v.is_string() ? v.get<std::string>() : "";
}

// A --quick run against a default one changes every record: say so before the records do.
std::vector<std::string> option_differences(const nlohmann::json& meta_a, const nlohmann::json& meta_b) {
    const auto options_of = [](const nlohmann::json& meta) {
        return meta.is_object() && meta.contains("options") && meta["options"].is_object() ? meta["options"]
                                                                                            : nlohmann::json::object();
    };
    const nlohmann::json oa = options_of(meta_a), ob = options_of(meta_b);
    std::vector<std::string> out;
    if (oa.empty() || ob.empty()) return out;  // imported files have none
    const auto shown = [](const nlohmann::json* v) {
        if (!v) return std::string("(unset)");
        std::string text = v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return text.size() > 48 ? text.substr(0, 45) + "..." : text;
    };
    std::set<std::string> keys;
    for (const auto& [k, v] : oa.items()) keys.insert(k);
    for (const auto& [k, v] : ob.items()) keys.insert(k);
    for (const std::string& k : keys) {
        if (k == "filters") continue;
        const nlohmann::json* va = oa.contains(k) ? &oa[k] : nullptr;
        const nlohmann::json* vb = ob.contains(k) ? &ob[k] : nullptr;
        if (!va || !vb || *va != *vb) out.push_back(k + ": " + shown(va) + " vs " + shown(vb));
    }
    return out;
}

}  // namespace

RecordsComparison compare_results(const ResultsFile& a, const ResultsFile& b, double threshold) {
    RecordsComparison c;
    c.threshold = threshold;
    const auto ta = topology_of(a), tb = topology_of(b);
    const MethodCatalog ca = catalog_for(a.meta), cb = catalog_for(b.meta);
    std::set<std::string> keys_b;
    for (const Record& r : b.records) keys_b.insert(r.key);
    for (const Record& ra : a.records) {
        const Record* rb = b.find(ra.key);
        if (!rb) {
            c.only_a.push_back(ra.key);
            continue;
        }
        RecordChange rc;
        rc.key = ra.key;
        const CurveMetrics ma = curve_metrics(ra, ca.find(ra.method), ta ? &*ta : nullptr),
                           mb = curve_metrics(*rb, cb.find(rb->method), tb ? &*tb : nullptr);
        if (ma.large && mb.large && ma.large->gbps > 0) {
            MetricChange m{ma.large->gbps, mb.large->gbps, mb.large->gbps / ma.large->gbps - 1.0};
            m.bytes = std::min(ma.large->to_bytes, mb.large->to_bytes);
            m.ci_overlap = overlap(point_at(ra, m.bytes), point_at(*rb, m.bytes));
            rc.large = m;
        }
        if (ma.small && mb.small && ma.small->bytes == mb.small->bytes && ma.small->seconds > 0) {
            MetricChange m{ma.small->seconds, mb.small->seconds, mb.small->seconds / ma.small->seconds - 1.0};
            m.bytes = ma.small->bytes;
            m.ci_overlap = overlap(point_at(ra, m.bytes), point_at(*rb, m.bytes));
            rc.small = m;
        }
        rc.beyond = (rc.large && std::abs(rc.large->change) > threshold) ||
                    (rc.small && std::abs(rc.small->change) > threshold);
        c.beyond += rc.beyond;
        c.common.push_back(rc);
    }
    for (const Record& rb : b.records)
        if (!a.find(rb.key)) c.only_b.push_back(rb.key);
    auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
        if (x != y) c.machine_differences.push_back(what + ": " + (x.empty() ? "?" : x) + " vs " + (y.empty() ? "?" : y));
    };
    differ("GPUs", gpus_of(a), gpus_of(b));
    differ("cluster nodes", nodes_of(a), nodes_of(b));
    differ("host", text_at(a.meta, "host"), text_at(b.meta, "host"));
    differ("CPU", text_at(a.meta, "cpu_model"), text_at(b.meta, "cpu_model"));
    differ("kernel", text_at(a.meta, "kernel"), text_at(b.meta, "kernel"));
    differ("driver", text_at(a.topology, "provenance", "driver_version"), text_at(b.topology, "provenance", "driver_version"));
    differ("hwcomm revision", text_at(a.meta, "git_revision"), text_at(b.meta, "git_revision"));
    c.option_differences = option_differences(a.meta, b.meta);
    return c;
}

std::string format_comparison(const RecordsComparison& c, const std::string& name_a, const std::string& name_b) {
    std::ostringstream out;
    out << "A = " << name_a << "\nB = " << name_b << "\n";
    if (c.machine_differences.empty()) out << "machines: no difference recorded\n";
    for (const std::string& d : c.machine_differences) out << "machines differ in " << d << "\n";
    for (const std::string& d : c.option_differences) out << "options differ in " << d << "\n";
    if (!c.option_differences.empty())
        out << "(the changes below come partly from these options: sizes, sampling and timing, not the machines alone)\n";
    char line[512];
    out << "\n" << c.common.size() << " records in both (! = change beyond " << c.threshold * 100
        << "%; ci: the 95% CIs of the deciding size overlap / differ / -):\n";
    std::snprintf(line, sizeof line, "%-52s %18s %8s %6s %22s %8s %6s\n", "record", "large GB/s A -> B", "change", "ci",
                  "small A -> B", "change", "ci");
    out << line;
    auto ci = [](const std::optional<bool>& o) { return !o ? "-" : *o ? "same" : "differ"; };
    for (const RecordChange& r : c.common) {
        char large[64] = "-", lchg[16] = "-", small[64] = "-", schg[16] = "-";
        if (r.large) {
            std::snprintf(large, sizeof large, "%.1f -> %.1f", r.large->a, r.large->b);
            std::snprintf(lchg, sizeof lchg, "%+.1f%%", r.large->change * 100);
        }
        if (r.small) {
            std::snprintf(small, sizeof small, "%s -> %s", format_time(r.small->a).c_str(), format_time(r.small->b).c_str());
            std::snprintf(schg, sizeof schg, "%+.1f%%", r.small->change * 100);
        }
        std::snprintf(line, sizeof line, "%c %-50s %18s %8s %6s %22s %8s %6s\n", r.beyond ? '!' : ' ', r.key.c_str(),
                      large, lchg, r.large ? ci(r.large->ci_overlap) : "-", small, schg,
                      r.small ? ci(r.small->ci_overlap) : "-");
        out << line;
    }
    out << "\n" << c.only_a.size() << " records only in A\n";
    for (const auto& k : c.only_a) out << "  " << k << "\n";
    out << c.only_b.size() << " records only in B\n";
    for (const auto& k : c.only_b) out << "  " << k << "\n";
    out << "\n" << c.beyond << " records change beyond " << c.threshold * 100 << "%\n";
    return out.str();
}

}  // namespace hwcomm::analyze
