// What the study did not ask but the same data shows: paths far from their
// link, remote faster than local, identical links that differ, pageable far
// below pinned, peer access slower than staging through the host.
#include <cstdio>
#include <map>

#include "analyze/host_read.hpp"
#include "analyze/study.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

namespace {

// Where the identical links were compared: every size all of them measured.
std::string sizes_all_measured(int sizes) {
    if (sizes == 1) return " at the one size all of them measured";
    return " at the " + std::to_string(sizes) + " sizes all of them measured (median of the per-size ratios)";
}

std::string gbps(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB/s", v);
    return buf;
}

std::string pct(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.0f%%", v * 100);
    return buf;
}

const Series* series_of(const std::vector<Series>& series, const std::string& key) {
    for (const Series& s : series)
        if (s.key == key) return &s;
    return nullptr;
}

}  // namespace

std::vector<Anomaly> find_anomalies(const std::vector<Series>& series, const std::vector<Cell>& cells,
                                    const VerdictRule& rule) {
    std::vector<Anomaly> out;
    // Remote faster than local, pageable far below pinned: same GPU, direction, binding.
    std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, const Series*>> by_path;
    for (const Series& s : series) {
        if (s.link != "cpu-gpu" || !s.window_gbps) continue;
        const std::string gpu = s.direction == "h2d" ? s.dst : s.src;
        by_path[{s.host_alloc, s.direction, gpu}][s.locality] = &s;
    }
    for (const auto& [k, m] : by_path) {
        const auto l = m.find("local"), r = m.find("remote");
        if (l == m.end() || r == m.end()) continue;
        const double e = *r->second->window_gbps / *l->second->window_gbps - 1.0;
        if (e > rule.threshold)
            out.push_back({"remote-faster-than-local",
                           r->second->key + " (" + gbps(*r->second->window_gbps) + ") is " + pct(e) + " faster than " +
                               l->second->key + " (" + gbps(*l->second->window_gbps) + ")",
                           {r->second->key, l->second->key}});
    }
    std::map<std::tuple<std::string, std::string, std::optional<int>>, std::map<std::string, const Series*>> allocs;
    for (const Series& s : series)
        if (s.link == "cpu-gpu" && s.window_gbps) allocs[{s.src, s.dst, s.numa}][s.host_alloc] = &s;
    for (const auto& [k, m] : allocs) {
        const auto pg = m.find("pageable"), pn = m.find("pinned");
        if (pg == m.end() || pn == m.end()) continue;
        if (*pg->second->window_gbps < 0.5 * *pn->second->window_gbps)
            out.push_back({"pageable-far-below-pinned",
                           pg->second->key + " reaches " + gbps(*pg->second->window_gbps) + ", less than half of " +
                               "pinned (" + gbps(*pn->second->window_gbps) + ")",
                           {pg->second->key, pn->second->key}});
    }
    // Peer access slower than staging through the host.
    std::map<std::pair<std::string, std::string>, std::map<std::string, const Series*>> pairs;
    for (const Series& s : series)
        if (s.link == "gpu-gpu" && s.window_gbps) {
            auto& slot = pairs[{s.src, s.dst}][s.peer];
            if (!slot || *s.window_gbps > *slot->window_gbps) slot = &s;  // staging at its best binding
        }
    for (const auto& [k, m] : pairs) {
        const auto on = m.find("on"), off = m.find("off");
        if (on == m.end() || off == m.end()) continue;
        if (*on->second->window_gbps < *off->second->window_gbps)
            out.push_back({"peer-slower-than-staging",
                           on->second->key + " (" + gbps(*on->second->window_gbps) + ") is slower than without peer "
                               "access (" + gbps(*off->second->window_gbps) + ")",
                           {on->second->key, off->second->key}});
    }
    // Identical links that differ by more than the rule allows.
    for (const Cell& c : cells) {
        if (c.table != "identical_links" || c.verdict != "true" || !c.evidence.contains("groups")) continue;
        for (const auto& [name, g] : c.evidence["groups"].items()) {
            // Within how far one of the links moved: not told apart (the cell says so).
            if (g.value("spread", 0.0) <= rule.threshold || g.value("within_repeat", false)) continue;
            std::string text = c.key + ": " + g.value("fastest", "") + " (" + gbps(g.value("fastest_gbps", 0.0)) +
                               ") vs " + g.value("slowest", "") + " (" + gbps(g.value("slowest_gbps", 0.0)) + "), " +
                               pct(g.value("spread", 0.0)) + sizes_all_measured(g.value("sizes", 0));
            // Records of host memory: how fast the host read around each (analyze/host_read.hpp).
            const Series* fast = series_of(series, g.value("fastest", ""));
            const Series* slow = series_of(series, g.value("slowest", ""));
            if (fast && slow && fast->host_read_gbps && slow->host_read_gbps && *slow->host_read_gbps > 0) {
                const double ratio = *fast->host_read_gbps / *slow->host_read_gbps;
                text += "; around them the host read probe read " + pct(ratio - 1) + " (the fastest against the slowest)" +
                        host_read_wording(ratio, g.value("spread", 0.0));
            }
            // One of these links measured twice (analyze/representative_recheck.hpp): how far it moved.
            if (g.contains("repeat") && g["repeat"].is_object()) {
                const auto& r = g["repeat"];
                const double moved = r.value("difference", 0.0);
                text += "; " + r.value("key", std::string("one of them")) + ", measured twice, read " +
                        gbps(r.value("first_gbps", 0.0)) + " then " + gbps(r.value("again_gbps", 0.0)) + " at " +
                        format_size(r.value("bytes", std::uint64_t{0})) + " (" + pct(moved) + "): the links differ by "
                        "more than it moved";
            }
            out.push_back({"identical-links-differ", text, {g.value("fastest", ""), g.value("slowest", "")}});
        }
    }
    // Paths below half their bottleneck.
    for (const Series& s : series) {
        const CurveMetrics& m = s.metrics;
        if (!m.fraction_of_limit || *m.fraction_of_limit >= 0.5) continue;
        out.push_back({"below-half-bottleneck",
                       s.key + " reaches " + gbps(m.large->gbps) + ", " + pct(*m.fraction_of_limit - 1.0) +
                           " from its " + m.limit->what + " limit of " + gbps(m.limit->gbps),
                       {s.key}});
    }
    return out;
}

}  // namespace hwcomm::analyze
