// The six tables of the study as cells. Every verdict compares the rule's one
// number per series (a statistic over the bandwidth-dominated size window);
// docs/analysis.md gives the rule and why.
#include <algorithm>
#include <cmath>
#include <map>

#include "analyze/study_internal.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

using nlohmann::json;

namespace {

json window_json(const VerdictRule& rule) {
    return {{"statistic", rule.statistic},
            {"min_bytes", rule.min_bytes},
            {"max_bytes", rule.max_bytes ? json(rule.max_bytes) : json(nullptr)},
            {"threshold", rule.threshold}};
}

Cell make_cell(const std::string& table, const std::string& link, const std::string& a, const std::string& b) {
    Cell c;
    c.table = table;
    c.link = link;
    c.key = table + "|" + link + (a.empty() ? "" : "|" + a) + "|" + b;
    return c;
}

void decide(Cell& c, const std::vector<double>& effects, double effect, const VerdictRule& rule) {
    if (effects.empty()) return;
    c.effect = effect;
    c.verdict = std::abs(effect) > rule.threshold ? "true" : "false";
}

void no_data(Cell& c, const std::string& why) {
    c.verdict = "no-data";
    c.evidence["reason"] = why;
}

std::string binding_text(const Series& s) { return s.numa ? "numa" + std::to_string(*s.numa) : "unbound"; }

// Series usable for a verdict: the rule's window has points.
std::vector<const Series*> usable(const std::vector<Series>& all, const std::string& link) {
    std::vector<const Series*> out;
    for (const Series& s : all)
        if (s.link == link && s.window_gbps) out.push_back(&s);
    return out;
}

// For peer-off copies, one binding per pair: the NUMA node local to the
// source GPU when measured, else an unbound run, else the lowest node.
std::map<std::pair<std::string, std::string>, const Series*> gpu_pairs(const std::vector<const Series*>& ss,
                                                                       const std::string& peer) {
    std::map<std::pair<std::string, std::string>, const Series*> out;
    auto rank = [](const Series* s) {
        if (s->numa && s->src_gpu_numa && *s->numa == *s->src_gpu_numa) return 0;
        if (!s->numa) return 1;
        return 2 + *s->numa;
    };
    for (const Series* s : ss) {
        if (s->peer != peer) continue;
        auto& slot = out[{s->src, s->dst}];
        if (!slot || rank(s) < rank(slot)) slot = s;
    }
    return out;
}

void cpu_gpu_cells(const std::vector<Series>& all, const VerdictRule& rule, std::vector<Cell>& cells) {
    const auto ss = usable(all, "cpu-gpu");
    for (const char* alloc : {"pageable", "pinned", "wc"}) {
        std::vector<const Series*> mine;
        for (const Series* s : ss)
            if (s->host_alloc == alloc) mine.push_back(s);
        const bool located = std::all_of(mine.begin(), mine.end(), [](const Series* s) { return !s->locality.empty(); });
        // Affinity and identical links, per direction.
        for (const char* dir : {"h2d", "d2h"}) {
            Cell aff = make_cell("affinity", "cpu-gpu", alloc, dir);
            Cell same = make_cell("identical_links", "cpu-gpu", alloc, dir);
            aff.host_alloc = same.host_alloc = alloc;
            aff.direction = same.direction = dir;
            std::map<std::string, std::vector<const Series*>> by_gpu;                 // gpu -> series
            // Identical links: one link class (classes/; the locality where no topology names classes).
            std::map<std::string, std::vector<const Series*>> by_class;
            for (const Series* s : mine)
                if (s->direction == dir) {
                    by_gpu[s->direction == "h2d" ? s->dst : s->src].push_back(s);
                    by_class[s->link_class.empty() ? s->locality : s->link_class].push_back(s);
                }
            aff.evidence = same.evidence = {{"window", window_json(rule)}};
            if (by_gpu.empty() || !located) {
                const char* why = by_gpu.empty() ? "no series of this host allocation and direction"
                                                 : "locality unknown (no topology)";
                no_data(aff, why);
                no_data(same, why);
                cells.push_back(aff);
                cells.push_back(same);
                continue;
            }
            std::vector<double> effects;
            json per_gpu = json::object();
            for (const auto& [gpu, list] : by_gpu) {
                const Series *local = nullptr, *remote = nullptr;
                for (const Series* s : list) {
                    // The first of each kind (one each on two-socket machines).
                    if (s->locality == "local" && !local) local = s;
                    if (s->locality == "remote" && !remote) remote = s;
                }
                if (!local || !remote) continue;
                const auto diff = paired_difference(*local, *remote, rule);
                if (!diff) continue;
                const double e = *diff;
                effects.push_back(e);
                per_gpu[gpu] = {{"local", local->key}, {"local_gbps", *local->window_gbps},
                                {"remote", remote->key}, {"remote_gbps", *remote->window_gbps}, {"effect", e}};
            }
            aff.evidence["comparison"] = "for each GPU: host buffer on the GPU's own socket (local) vs the other "
                                         "socket (remote), (local - remote) / remote; effect = median over GPUs";
            aff.evidence["per_gpu"] = per_gpu;
            if (effects.empty()) no_data(aff, "no GPU measured from both a local and a remote NUMA node");
            decide(aff, effects, effects.empty() ? 0 : median_value(effects), rule);
            cells.push_back(aff);

            std::vector<double> spreads;
            json groups = json::object();
            for (const auto& [cls, list] : by_class) {
                if (list.size() < 2) continue;
                const auto measured = group_spread(list, rule, &Series::class_points);
                if (!measured) continue;
                spreads.push_back(measured->spread);
                groups[cls] = identical_links_group(list, *measured);
                groups[cls]["locality"] = list.front()->locality;
            }
            same.evidence["comparison"] = "transfers of one link class (the same edges at the same stated rates, NUMA "
                                          "relation and switch sharing: docs/classes.md) are identical links; per "
                                          "link the median over the common sizes of its bandwidth / the class's "
                                          "median there, spread = the highest / the lowest - 1; effect = the "
                                          "largest spread; a representative measured again beside its class's "
                                          "confirmations (measured_again) counts by that measurement there; repeat: the "
                                          "largest difference between two measurements of one of these links "
                                          "(a representative's sweep and its second measurement, a "
                                          "confirmation's two, a link's two of its class's second pass, which "
                                          "counts by their mean), the yardstick for how far they may differ: a "
                                          "spread within it is not told apart (within_repeat)";
            same.evidence["groups"] = groups;
            if (spreads.empty()) no_data(same, "fewer than two identical links measured");
            decide_identical_links(same, spreads, rule);
            cells.push_back(same);
        }
        // Anisotropy, per locality: h2d vs d2h of one (NUMA node, GPU) pair.
        for (const char* loc : {"local", "remote"}) {
            Cell an = make_cell("anisotropy", "cpu-gpu", alloc, loc);
            an.host_alloc = alloc;
            an.locality = loc;
            an.evidence = {{"window", window_json(rule)},
                           {"comparison", "for each NUMA node and GPU: (host-to-device - device-to-host) / "
                                          "device-to-host; effect = median over pairs"}};
            if (!located || mine.empty()) {
                no_data(an, mine.empty() ? "no series of this host allocation" : "locality unknown (no topology)");
                cells.push_back(an);
                continue;
            }
            std::map<std::pair<std::optional<int>, std::string>, std::pair<const Series*, const Series*>> pairs;
            for (const Series* s : mine) {
                if (s->locality != loc) continue;
                auto& p = pairs[{s->numa, s->direction == "h2d" ? s->dst : s->src}];
                (s->direction == "h2d" ? p.first : p.second) = s;
            }
            std::vector<double> effects;
            json per_pair = json::array();
            for (const auto& [k, p] : pairs) {
                if (!p.first || !p.second) continue;
                const auto diff = paired_difference(*p.first, *p.second, rule);
                if (!diff) continue;
                const double e = *diff;
                effects.push_back(e);
                per_pair.push_back({{"h2d", p.first->key}, {"h2d_gbps", *p.first->window_gbps}, {"d2h", p.second->key},
                                    {"d2h_gbps", *p.second->window_gbps}, {"effect", e}});
            }
            an.evidence["per_pair"] = per_pair;
            if (effects.empty())
                no_data(an, pairs.empty() ? "no " + std::string(loc) + " series" : "no pair measured in both directions");
            decide(an, effects, effects.empty() ? 0 : median_value(effects), rule);
            cells.push_back(an);
        }
    }
}

}  // namespace


std::optional<double> paired_difference(const Series& a, const Series& b, const VerdictRule& rule) {
    std::vector<double> d;
    for (const auto& [bytes, ga] : a.window_points) {
        const auto it = b.window_points.find(bytes);
        if (it != b.window_points.end() && it->second > 0) d.push_back(ga / it->second - 1.0);
    }
    if (d.empty()) return std::nullopt;
    return rule.reduce(std::move(d));
}

namespace {

// The largest difference between two measurements of one link of `group`
// (Series::repeats): {key, bytes, first_gbps, again_gbps, difference}; null without.
json largest_repeat(const std::vector<const Series*>& group) {
    json best;
    double largest = -1;
    for (const Series* s : group)
        for (const SameLinkRepeat& x : s->repeats)
            if (x.first_gbps > 0 && std::abs(x.again_gbps / x.first_gbps - 1) > largest) {
                largest = std::abs(x.again_gbps / x.first_gbps - 1);
                best = {{"key", s->key}, {"bytes", x.bytes}, {"first_gbps", x.first_gbps},
                        {"again_gbps", x.again_gbps}, {"difference", x.again_gbps / x.first_gbps - 1}};
            }
    return best;
}

}  // namespace

json identical_links_group(const std::vector<const Series*>& group, const GroupSpread& measured) {
    json out = {{"n", group.size()},
                {"slowest", measured.slowest->key},
                {"slowest_gbps", measured.slowest_gbps},
                {"fastest", measured.fastest->key},
                {"fastest_gbps", measured.fastest_gbps},
                {"spread", measured.spread},
                {"sizes", measured.sizes},
                {"class", group.front()->link_class_description}};
    json again = json::array();  // the series whose class_points took a recheck's sizes
    for (const Series* s : group)
        if (!s->rechecked_sizes.empty()) again.push_back(s->key);
    if (!again.empty()) out["measured_again"] = again;
    const auto twice = std::count_if(group.begin(), group.end(), [](const Series* s) { return s->second_pass_bytes > 0; });
    if (twice > 0) out["measured_twice"] = twice;
    if (json repeat = largest_repeat(group); !repeat.is_null()) {
        if (measured.spread <= std::abs(repeat.value("difference", 0.0))) out["within_repeat"] = true;
        out["repeat"] = std::move(repeat);
    }
    return out;
}

void decide_identical_links(Cell& c, const std::vector<double>& spreads, const VerdictRule& rule) {
    decide(c, spreads, spreads.empty() ? 0 : *std::max_element(spreads.begin(), spreads.end()), rule);
    if (c.verdict != "true" || !c.evidence.contains("groups")) return;
    const json* moved = nullptr;  // the repeat of the widest group within its repeat
    double widest = 0;
    for (const auto& [name, g] : c.evidence["groups"].items()) {
        if (g.value("spread", 0.0) <= rule.threshold) continue;
        if (!g.value("within_repeat", false)) return;  // told apart
        if (g.value("spread", 0.0) > widest) widest = g.value("spread", 0.0), moved = &g["repeat"];
    }
    if (!moved) return;
    c.verdict = "false";
    c.evidence["within_repeat"] = {{"spread", widest},
                                   {"key", moved->value("key", "")},
                                   {"difference", moved->value("difference", 0.0)}};
}

std::optional<GroupSpread> group_spread(const std::vector<const Series*>& group, const VerdictRule& rule,
                                        SeriesPoints points) {
    if (group.size() < 2) return std::nullopt;
    std::vector<std::vector<double>> off(group.size());   // per series: log(its / the group's median) per size
    std::vector<std::vector<double>> gbps(group.size());  // per series: its bandwidth at those sizes
    for (const auto& [bytes, first] : group.front()->*points) {
        std::vector<double> here, logs;
        for (const Series* s : group) {
            const auto it = (s->*points).find(bytes);
            if (it == (s->*points).end() || !(it->second > 0)) break;
            here.push_back(it->second);
            logs.push_back(std::log(it->second));
        }
        if (here.size() != group.size()) continue;
        const double centre = median_value(logs);
        for (std::size_t i = 0; i < group.size(); ++i) {
            off[i].push_back(logs[i] - centre);
            gbps[i].push_back(here[i]);
        }
    }
    if (off.front().empty()) return std::nullopt;
    GroupSpread g;
    g.sizes = off.front().size();
    double high = 0, low = 0;
    std::size_t fastest = 0, slowest = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
        const double d = rule.reduce(std::move(off[i]));
        if (!g.fastest || d > high) high = d, g.fastest = group[i], fastest = i;
        if (!g.slowest || d < low) low = d, g.slowest = group[i], slowest = i;
    }
    g.spread = std::exp(high - low) - 1.0;
    g.fastest_gbps = median_value(gbps[fastest]);
    g.slowest_gbps = median_value(gbps[slowest]);
    return g;
}

std::vector<Cell> study_cells(const std::vector<Series>& series, const VerdictRule& rule) {
    std::vector<Cell> cells;
    cpu_gpu_cells(series, rule, cells);
    gpu_gpu_cells(series, rule, cells);
    return cells;
}

std::map<std::pair<std::string, std::string>, const Series*> peer_series_by_pair(const std::vector<Series>& all,
                                                                                 const std::string& peer) {
    return gpu_pairs(usable(all, "gpu-gpu"), peer);
}
json verdict_window_json(const VerdictRule& rule) { return window_json(rule); }
std::string series_binding(const Series& s) { return binding_text(s); }
void decide_cell(Cell& c, const std::vector<double>& effects, double effect, const VerdictRule& rule) {
    decide(c, effects, effect, rule);
}
void no_data_cell(Cell& c, const std::string& why) { no_data(c, why); }
Cell new_cell(const std::string& table, const std::string& link, const std::string& a, const std::string& b) {
    return make_cell(table, link, a, b);
}

}  // namespace hwcomm::analyze
