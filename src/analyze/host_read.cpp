#include "analyze/host_read.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "analyze/record_facts.hpp"
#include "core/error.hpp"
#include "core/utf8.hpp"
#include "io/cluster_section.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

namespace {

const nlohmann::json* host_read_of(const nlohmann::json& meta) {
    if (!meta.is_object()) return nullptr;
    const auto run = meta.find("run");
    if (run == meta.end() || !run->is_object()) return nullptr;
    const auto probe = run->find("host_read");
    return probe == run->end() || !probe->is_object() ? nullptr : &*probe;
}

double finite_number(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return NAN;
    return it->get<double>();
}

// The nodes of a file of several (--mpi), each with its own meta; none for a
// file of one node or a malformed cluster section (the file's meta serves).
std::vector<ClusterNodeInfo> cluster_nodes_of(const ResultsFile& file) {
    try {
        if (auto cluster = cluster_section_of(file)) return std::move(cluster->nodes);
    } catch (const UsageError&) {
    }
    return {};
}

// The meta whose probe ran beside `record`: its node's in a file of several, else the file's.
const nlohmann::json& meta_beside(const ResultsFile& file, const Record& record,
                                  const std::vector<ClusterNodeInfo>& nodes) {
    const auto node = record.context.is_object() ? record.context.find("node") : record.context.end();
    if (node != record.context.end() && node->is_string())
        for (const ClusterNodeInfo& n : nodes)
            if (n.name == node->get<std::string>()) return n.meta;
    return file.meta;
}

std::string range_text(const HostReadRange& r, const std::string& where) {
    char head[200];
    std::snprintf(head, sizeof head, "host memory read between records%s (%zu visit%s over %.1f s", where.c_str(),
                  r.visits, r.visits == 1 ? "" : "s", r.span_s);
    std::string out = head;
    if (r.bytes) out += ", " + std::to_string(r.bytes >> 20) + " MiB";
    if (r.threads) out += " by " + std::to_string(r.threads) + " thread" + (r.threads == 1 ? "" : "s");
    char body[400];
    if (r.visits < 2)
        std::snprintf(body, sizeof body, "): %.1f GB/s\n", r.median_gbps);
    else if (r.spread() <= kHostReadSteady)
        std::snprintf(body, sizeof body, "): %.1f-%.1f GB/s, median %.1f, %.0f%% apart: steady\n", r.low_gbps,
                      r.high_gbps, r.median_gbps, 100 * r.spread());
    else
        std::snprintf(body, sizeof body,
                      "): %.1f-%.1f GB/s, median %.1f, %.0f%% apart\n  the host's memory rate moved while this "
                      "run measured: its host-side figures may differ from another run's by as much, more than "
                      "their intervals say (docs/cpu-methods.md)\n",
                      r.low_gbps, r.high_gbps, r.median_gbps, 100 * r.spread());
    return out + body;
}

}  // namespace

std::optional<HostReadRange> host_read_range(const nlohmann::json& meta) {
    const nlohmann::json* probe = host_read_of(meta);
    if (!probe) return std::nullopt;
    const auto visits = probe->find("visits");
    if (visits == probe->end() || !visits->is_array()) return std::nullopt;
    std::vector<double> rates;
    double first_t = NAN, last_t = NAN;
    for (const nlohmann::json& v : *visits) {
        if (!v.is_object()) continue;
        const double gbps = finite_number(v, "gbps"), t = finite_number(v, "t_s");
        if (!(gbps > 0) || !std::isfinite(gbps)) continue;
        rates.push_back(gbps);
        if (std::isfinite(t)) {
            if (!std::isfinite(first_t)) first_t = t;
            last_t = t;
        }
    }
    if (rates.empty()) return std::nullopt;
    std::sort(rates.begin(), rates.end());
    HostReadRange r;
    r.visits = rates.size();
    r.low_gbps = rates.front();
    r.high_gbps = rates.back();
    r.median_gbps = quantile_sorted(rates, 0.5);
    r.span_s = std::isfinite(first_t) && last_t > first_t ? last_t - first_t : 0;
    const double bytes = finite_number(*probe, "bytes"), threads = finite_number(*probe, "threads");
    if (bytes > 0 && bytes < 1e18) r.bytes = static_cast<std::uint64_t>(bytes);
    if (threads > 0 && threads < 1e6) r.threads = static_cast<unsigned>(threads);
    return r;
}

std::optional<double> host_read_mean(const Record& record) {
    if (!record.context.is_object()) return std::nullopt;
    const auto rates = record.context.find("host_read_gbps");
    if (rates == record.context.end()) return std::nullopt;
    return host_read_mean(*rates);
}

std::optional<double> host_read_mean(const nlohmann::json& rates) {
    if (!rates.is_array()) return std::nullopt;
    double sum = 0;
    std::size_t n = 0;
    for (const nlohmann::json& v : rates)
        if (v.is_number() && v.get<double>() > 0 && std::isfinite(v.get<double>())) sum += v.get<double>(), ++n;
    if (n == 0) return std::nullopt;
    return sum / static_cast<double>(n);
}

std::vector<HostReadOffRecord> records_off_host_median(const ResultsFile& file) {
    std::vector<HostReadOffRecord> out;
    const std::vector<ClusterNodeInfo> nodes = cluster_nodes_of(file);
    std::map<const nlohmann::json*, std::optional<HostReadRange>> ranges;
    for (const Record& r : file.records) {
        if (!has_numa_endpoint(r)) continue;
        const auto mean = host_read_mean(r);
        if (!mean) continue;
        const nlohmann::json* meta = &meta_beside(file, r, nodes);
        if (!ranges.count(meta)) ranges[meta] = host_read_range(*meta);
        const auto& range = ranges[meta];
        if (!range || !(range->median_gbps > 0)) continue;
        const double ratio = *mean / range->median_gbps;
        if (std::abs(ratio - 1) >= kHostReadOffMedian) out.push_back({r.key, ratio});
    }
    return out;
}

std::string host_read_wording(double host_ratio, double difference) {
    const double host = host_ratio - 1;
    if (std::abs(host) < kHostReadExplains)
        return ": the host read as fast around it (the probe visits at most every 2 s: faster changes escape it)";
    if ((host > 0) != (difference > 0)) return ": the host moved the other way";
    if (2 * std::abs(host) >= std::abs(difference)) return ": the difference may be the host's, not the link's";
    return ": the host explains part of the difference at most";
}

std::string format_host_read(const ResultsFile& file) {
    const nlohmann::json& meta = file.meta;
    const nlohmann::json* probe = host_read_of(meta);
    if (!probe) return "";
    const auto skipped = probe->find("skipped");
    if (skipped != probe->end() && skipped->is_string())
        return "host memory read between records: not probed (" + to_valid_utf8(skipped->get<std::string>()) + ")\n";
    std::string out;
    const std::vector<ClusterNodeInfo> nodes = cluster_nodes_of(file);
    for (const ClusterNodeInfo& n : nodes)
        if (const auto r = host_read_range(n.meta)) out += range_text(*r, " on " + to_valid_utf8(n.name));
    if (out.empty()) {
        const auto r = host_read_range(meta);
        if (!r) return "";
        out = range_text(*r, "");
    }
    const std::vector<HostReadOffRecord> off = records_off_host_median(file);
    if (off.empty()) return out;
    constexpr std::size_t kListed = 8;
    out += "  measured while the host read " + std::to_string(std::lround(100 * kHostReadOffMedian)) +
           "% or more away from " + (nodes.empty() ? "that median" : "its node's median") + " (the visits around each):";
    for (std::size_t i = 0; i < off.size() && i < kListed; ++i) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, " (%+.0f%%)", 100 * (off[i].ratio - 1));
        out += std::string(i ? "," : "") + " " + to_valid_utf8(off[i].key) + ratio;
    }
    if (off.size() > kListed) out += ", and " + std::to_string(off.size() - kListed) + " more";
    return out + "\n";
}

}  // namespace hwcomm::analyze
