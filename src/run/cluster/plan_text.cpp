#include "run/cluster/plan_text.hpp"

#include <cstdio>
#include <sstream>

#include "catalog/method_names.hpp"

namespace hwcomm {

std::string describe_cluster_plan(const PairSchedule& schedule, const std::vector<std::string>& names,
                                  const RunOptions& options) {
    const double estimate = estimate_schedule_seconds(schedule, kHostRecordsPerPair, options.sizes.size(),
                                                      options.stopping.time_budget_s);
    std::ostringstream out;
    out << "cluster plan: " << names.size() << " node(s), schedule " << schedule.kind << ", "
        << schedule.rounds.size() << " round(s), " << schedule.pair_count() << " pair(s)\n";
    // A round of a large cluster is half its nodes: the first pairs stand for
    // it (a million nodes wrote 75 MB), the results file keeps every pair.
    constexpr std::size_t kPairsShown = 32;
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        const auto& round = schedule.rounds[r];
        out << "  round " << r + 1 << ":";
        for (std::size_t i = 0; i < round.size() && i < kPairsShown; ++i)
            out << " " << names[static_cast<std::size_t>(round[i].first)] << "<->"
                << names[static_cast<std::size_t>(round[i].second)];
        if (round.size() > kPairsShown) out << " ... and " << round.size() - kPairsShown << " more pairs";
        out << "\n";
    }
    char line[200];
    std::snprintf(line, sizeof line,
                  "estimate: about %.0f s between nodes (%zu %s records per pair, %zu sizes, %.2f s budget per "
                  "size; a far NUMA node and %s add more), after each node's own characterization\n",
                  estimate, kHostRecordsPerPair, method_name::kMpiHost, options.sizes.size(),
                  options.stopping.time_budget_s, method_name::kMpiGpu);
    out << line;
    return out.str();
}

nlohmann::json schedule_to_json(const PairSchedule& schedule, const std::vector<std::string>& names, double estimate_s) {
    nlohmann::json rounds = nlohmann::json::array();
    for (const auto& round : schedule.rounds) {
        nlohmann::json pairs = nlohmann::json::array();
        for (const NodePair& p : round)
            pairs.push_back({names[static_cast<std::size_t>(p.first)], names[static_cast<std::size_t>(p.second)]});
        rounds.push_back(std::move(pairs));
    }
    return {{"kind", schedule.kind}, {"rounds", std::move(rounds)}, {"estimate_s", estimate_s}};
}

}  // namespace hwcomm
