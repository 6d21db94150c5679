#include "run/variant_choice.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace hwcomm {

namespace {

double log_distance(std::uint64_t a, std::uint64_t b) {
    return std::abs(std::log2(static_cast<double>(std::max<std::uint64_t>(a, 1))) -
                    std::log2(static_cast<double>(std::max<std::uint64_t>(b, 1))));
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
    for (std::uint64_t bytes : snap_probe_sizes(probe_sizes, ladder, max_bytes)) {
        const VariantProbe* best = nullptr;
        const std::size_t first = choice.probes_.size();
        for (const std::string& v : variants) {
            std::optional<VariantProbe> p = measure(bytes, v);
            if (!p) return std::nullopt;
            p->bytes = bytes;
            p->variant = v;
            choice.probes_.push_back(std::move(*p));
        }
        for (std::size_t i = first; i < choice.probes_.size(); ++i) {
            const VariantProbe& p = choice.probes_[i];
            if (p.error.empty() && p.gbps > 0 && (!best || p.gbps > best->gbps)) best = &p;
        }
        choice.winners_.emplace_back(bytes, best ? best->variant : std::string());
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
    return {{"rule", "every variant measured at each probe size; each size takes the winner (highest median) of the "
                     "probe nearest on a log scale"},
            {"probes", probes},
            {"winners", winners}};
}

}  // namespace hwcomm
