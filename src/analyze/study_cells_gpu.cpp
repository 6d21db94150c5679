// The GPU-GPU tables: what peer access buys, anisotropy and identical links,
// each for NVLink-connected (local) and other (remote) pairs.
#include <algorithm>
#include <cmath>

#include "analyze/study_internal.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

using nlohmann::json;

namespace {

// Pairs of one locality; n/a when none of them can enable peer access.
struct LocalityView {
    std::vector<std::pair<std::pair<std::string, std::string>, const Series*>> pairs;
    bool any_series = false, all_located = true, any_peer_possible = false, peer_known = true;
};

LocalityView view(const std::vector<Series>& all, const std::string& peer, const std::string& loc) {
    LocalityView v;
    for (const Series& s : all) {
        if (s.link != "gpu-gpu") continue;
        v.any_series = true;
        if (s.locality.empty()) v.all_located = false;
        if (s.locality == loc) {
            if (!s.peer_possible) v.peer_known = false;
            if (s.peer_possible.value_or(false)) v.any_peer_possible = true;
        }
    }
    for (const auto& entry : peer_series_by_pair(all, peer))
        if (entry.second->locality == loc) v.pairs.push_back(entry);
    return v;
}

// n/a or no-data before any comparison; true when the cell is settled.
bool settle_early(Cell& c, const LocalityView& v, bool needs_peer) {
    if (!v.any_series) {
        no_data_cell(c, "no GPU-GPU series");
        return true;
    }
    if (!v.all_located) {
        no_data_cell(c, "locality unknown (no topology)");
        return true;
    }
    if (needs_peer && v.peer_known && !v.any_peer_possible && v.pairs.empty()) {
        c.verdict = "n/a";
        c.evidence["reason"] = "no " + c.locality + " pair can enable peer access (topology)";
        return true;
    }
    return false;
}

}  // namespace

void gpu_gpu_cells(const std::vector<Series>& all, const VerdictRule& rule, std::vector<Cell>& cells) {
    for (const char* loc : {"local", "remote"}) {
        // Peer effect: peer on vs off for each ordered pair.
        Cell pe = new_cell("peer_effect", "gpu-gpu", "", loc);
        pe.locality = loc;
        pe.evidence = {{"window", verdict_window_json(rule)},
                       {"comparison", "for each pair: (peer on - peer off) / peer off, peer-off copies bound to "
                                      "the NUMA node local to the source GPU; effect = median over pairs"}};
        const LocalityView on = view(all, "on", loc);
        if (!settle_early(pe, on, true)) {
            const auto off = peer_series_by_pair(all, "off");
            std::vector<double> effects;
            json per_pair = json::array();
            for (const auto& [pair, s_on] : on.pairs) {
                const auto it = off.find(pair);
                if (it == off.end()) continue;
                const auto diff = paired_difference(*s_on, *it->second, rule);
                if (!diff) continue;
                const double e = *diff;
                effects.push_back(e);
                per_pair.push_back({{"on", s_on->key}, {"on_gbps", *s_on->window_gbps}, {"off", it->second->key},
                                    {"off_gbps", *it->second->window_gbps},
                                    {"binding", series_binding(*it->second)}, {"effect", e}});
            }
            pe.evidence["per_pair"] = per_pair;
            if (effects.empty()) no_data_cell(pe, "no pair measured with peer access both on and off");
            decide_cell(pe, effects, effects.empty() ? 0 : median_value(effects), rule);
        }
        cells.push_back(pe);

        for (const char* peer : {"on", "off"}) {
            const std::string pk = std::string("peer_") + peer;
            const LocalityView v = view(all, peer, loc);
            // Anisotropy: a->b vs b->a.
            Cell an = new_cell("anisotropy", "gpu-gpu", pk, loc);
            an.locality = loc;
            an.peer = peer;
            an.evidence = {{"window", verdict_window_json(rule)},
                           {"comparison", "for each unordered pair measured both ways: over the common sizes, "
                                          "the median direction's bandwidth / the other's - 1 (the faster over "
                                          "the slower); effect = median over pairs"}};
            if (!settle_early(an, v, std::string(peer) == "on")) {
                std::vector<double> effects;
                json per_pair = json::array();
                for (const auto& [pair, ab] : v.pairs) {
                    if (pair.first > pair.second) continue;
                    for (const auto& [pair2, ba] : v.pairs) {
                        if (pair2.first != pair.second || pair2.second != pair.first) continue;
                        const auto spread = group_spread({ab, ba}, rule);
                        if (!spread) continue;
                        effects.push_back(spread->spread);
                        per_pair.push_back({{"forward", ab->key}, {"forward_gbps", *ab->window_gbps},
                                            {"backward", ba->key}, {"backward_gbps", *ba->window_gbps},
                                            {"effect", spread->spread}});
                    }
                }
                an.evidence["per_pair"] = per_pair;
                if (effects.empty()) no_data_cell(an, "no pair measured in both directions");
                decide_cell(an, effects, effects.empty() ? 0 : median_value(effects), rule);
            }
            cells.push_back(an);

            // Identical links: pairs of one link class (classes/; the nvidia-smi class without a topology).
            Cell same = new_cell("identical_links", "gpu-gpu", pk, loc);
            same.locality = loc;
            same.peer = peer;
            same.evidence = {{"window", verdict_window_json(rule)},
                             {"comparison", "pairs of one link class (the same edges at the same stated rates: "
                                            "docs/classes.md) are identical links; per pair the median over the "
                                            "common sizes of its bandwidth / the class's median there, spread = the "
                                            "highest / the lowest - 1; effect = the largest spread; a representative "
                                            "measured again beside its class's confirmations (measured_again) counts "
                                            "by that measurement there, a link of a class measured twice by the "
                                            "mean of its two; a spread within how far one link moved between two "
                                            "measurements is not told apart (within_repeat)"}};
            if (!settle_early(same, v, std::string(peer) == "on")) {
                std::map<std::string, std::vector<const Series*>> by_class;
                for (const auto& entry : v.pairs) {
                    const Series& s = *entry.second;
                    by_class[s.link_class.empty() ? s.path_class : s.link_class].push_back(&s);
                }
                std::vector<double> spreads;
                json groups = json::object();
                for (const auto& [cls, list] : by_class) {
                    if (list.size() < 2) continue;
                    const auto measured = group_spread(list, rule, &Series::class_points);
                    if (!measured) continue;
                    spreads.push_back(measured->spread);
                    groups[cls] = identical_links_group(list, *measured);
                    groups[cls]["binding"] = std::string(peer) == "off" ? series_binding(*measured->slowest) : "-";
                    groups[cls]["path_class"] = list.front()->path_class;
                }
                same.evidence["groups"] = groups;
                if (spreads.empty()) no_data_cell(same, "fewer than two identical links measured");
                decide_identical_links(same, spreads, rule);
            }
            cells.push_back(same);
        }
    }
}

}  // namespace hwcomm::analyze
