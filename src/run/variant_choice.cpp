#include "run/variant_choice.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace hwcomm {

namespace {

double log_distance(std::uint64_t a, std::uint64_t b) {
    return std::abs(std::log2(static_cast<double>(std::max<std::uint64_t>(a, 1))) -
                    std::log2(static_cast<double>(std::max<std::uint64_t>(b, 1))));
}

// A variant need not be probed at a larger size when, at the last probe size,
// its samples were long enough that the team's start and join did not hold it
// back (1 ms against microseconds) and even the top of its median's CI there
// lies below what it would have to reach here: with the same workers, a larger
// working set never moves faster (it leaves the caches), so it cannot
// overtake. On a 16-core host the 1- to 4-worker probes at 1 GiB were a third
// of a CPU record's time. What it must reach: a variant of more workers than
// the best so far wins if its CI reaches the best's (the largest probe size
// prefers the most workers), so the bottom of the best's CI; one of fewer
// workers only by a higher median, so the best's median.
constexpr double kSampleLongEnoughS = 1e-3;

bool outpaced(const VariantProbe* before, const VariantProbe& best_here, bool fewer_workers) {
    if (!before || !(before->gbps > 0) || before->samples == 0) return false;
    const double sample_s = static_cast<double>(before->bytes) / (before->gbps * 1e9);
    if (sample_s < kSampleLongEnoughS) return false;
    const double bar = fewer_workers ? best_here.gbps : best_here.gbps * (1 - best_here.ci_half_width);
    return before->gbps * (1 + before->ci_half_width) < bar;
}

// At the largest probe size (the memory behind the caches, the figure STREAM
// and Intel MLC take with every core) the variant latest in the session's
// list (the most workers) among those whose 95% CI reaches the best median's
// CI wins: three short samples there cannot tell them apart, and on a noisy
// 16-core host the 8-worker probe of cpu-read once won by 4% inside such
// overlapping CIs while its 1 GiB point then read 20% below what 16 workers
// read in the same call's STREAM.
const VariantProbe* most_resources_within_reach(const std::vector<VariantProbe>& probes, std::size_t first,
                                                const std::vector<std::string>& variants, const VariantProbe& best) {
    const auto rank = [&variants](const std::string& v) {
        return std::find(variants.begin(), variants.end(), v) - variants.begin();
    };
    const VariantProbe* winner = &best;
    for (std::size_t i = first; i < probes.size(); ++i) {
        const VariantProbe& p = probes[i];
        if (!p.error.empty() || !(p.gbps > 0)) continue;
        const bool within_reach = p.gbps * (1 + p.ci_half_width) >= best.gbps * (1 - best.ci_half_width);
        if (within_reach && rank(p.variant) > rank(winner->variant)) winner = &p;
    }
    return winner;
}

}  // namespace

std::vector<std::uint64_t> snap_probe_sizes(const std::vector<std::size_t>& probe_sizes,
                                            const std::vector<std::uint64_t>& ladder, std::uint64_t max_bytes) {
    std::vector<std::uint64_t> usable;
    for (std::uint64_t s : ladder)
        if (s <= max_bytes) usable.push_back(s);
    std::set<std::uint64_t> out;
    if (usable.empty()) return {};
    for (std::size_t want : probe_sizes) {
        const auto nearest = std::min_element(usable.begin(), usable.end(), [want](std::uint64_t a, std::uint64_t b) {
            return log_distance(a, want) < log_distance(b, want);
        });
        out.insert(*nearest);
    }
    return {out.begin(), out.end()};
}

std::optional<VariantChoice> VariantChoice::probe(const std::vector<std::string>& variants,
                                                  const std::vector<std::size_t>& probe_sizes,
                                                  const std::vector<std::uint64_t>& ladder, std::uint64_t max_bytes,
                                                  const Measure& measure) {
    VariantChoice choice(variants);
    if (variants.size() < 2) return choice;
    const std::vector<std::uint64_t> sizes = snap_probe_sizes(probe_sizes, ladder, max_bytes);
    choice.probes_.reserve(sizes.size() * variants.size());  // `previous` and `best` point into probes_
    std::map<std::string, const VariantProbe*> previous;  // each variant at the last probe size it was measured
    const auto last_probe = [&previous](const std::string& v) -> const VariantProbe* {
        const auto it = previous.find(v);
        return it == previous.end() ? nullptr : it->second;
    };
    // The session lists its variants from the fewest workers to the most.
    const auto rank = [&variants](const std::string& v) { return std::find(variants.begin(), variants.end(), v) - variants.begin(); };
    for (std::uint64_t bytes : sizes) {
        // The fastest at the last probe size first: it sets the bar the others must be able to reach.
        std::vector<std::string> order = variants;
        std::stable_sort(order.begin(), order.end(), [&last_probe](const std::string& a, const std::string& b) {
            const VariantProbe* pa = last_probe(a);
            const VariantProbe* pb = last_probe(b);
            return (pa ? pa->gbps : 0.0) > (pb ? pb->gbps : 0.0);
        });
        const std::size_t first = choice.probes_.size();
        const VariantProbe* best = nullptr;
        for (const std::string& v : order) {
            if (best && outpaced(last_probe(v), *best, rank(v) < rank(best->variant))) {
                choice.skipped_.push_back({bytes, v});
                continue;
            }
            std::optional<VariantProbe> p = measure(bytes, v);
            if (!p) return std::nullopt;
            p->bytes = bytes;
            p->variant = v;
            choice.probes_.push_back(std::move(*p));
            const VariantProbe& added = choice.probes_.back();
            if (added.error.empty() && added.gbps > 0 && (!best || added.gbps > best->gbps)) best = &added;
        }
        // A variant skipped here keeps its last probe: it is no faster at the sizes above.
        for (std::size_t i = first; i < choice.probes_.size(); ++i)
            if (choice.probes_[i].error.empty() && choice.probes_[i].gbps > 0)
                previous[choice.probes_[i].variant] = &choice.probes_[i];
        const VariantProbe* winner = best;
        if (best && bytes == sizes.back()) winner = most_resources_within_reach(choice.probes_, first, variants, *best);
        choice.winners_.emplace_back(bytes, winner ? winner->variant : std::string());
    }
    return choice;
}

std::vector<std::string> VariantChoice::for_size(std::uint64_t bytes) const {
    if (winners_.empty()) return all_;
    const auto nearest = std::min_element(winners_.begin(), winners_.end(), [bytes](const auto& a, const auto& b) {
        return log_distance(a.first, bytes) < log_distance(b.first, bytes);
    });
    if (nearest->second.empty()) return all_;
    return {nearest->second};
}

nlohmann::json VariantChoice::to_json() const {
    nlohmann::json probes = nlohmann::json::array(), winners = nlohmann::json::array();
    for (const VariantProbe& p : probes_) {
        nlohmann::json j{{"bytes", p.bytes}, {"variant", p.variant}, {"bandwidth_gbps", p.gbps},
                         {"ci95_half_width", p.ci_half_width}, {"samples", p.samples}};
        if (!p.error.empty()) j["error"] = p.error;
        probes.push_back(std::move(j));
    }
    for (const auto& [bytes, variant] : winners_)
        winners.push_back({{"bytes", bytes}, {"variant", variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(variant)}});
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& [bytes, variant] : skipped_) skipped.push_back({{"bytes", bytes}, {"variant", variant}});
    return {{"rule", "every variant measured at each probe size, fastest at the last probe size first, except one "
                     "whose median there (samples >= 1 ms, top of its 95% CI) is below the bottom of the best CI "
                     "at this size: a larger working set never moves faster; each size takes the winner (highest "
                     "median; at the largest probe size the most workers whose 95% CI reaches the best's) of the "
                     "probe nearest on a log scale"},
            {"probes", probes},
            {"skipped", skipped},
            {"winners", winners}};
}

}  // namespace hwcomm
