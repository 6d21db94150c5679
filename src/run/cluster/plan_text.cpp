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
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        out << "  round " << r + 1 << ":";
        for (const NodePair& p : schedule.rounds[r])
            out << " " << names[static_cast<std::size_t>(p.first)] << "<->" << names[static_cast<std::size_t>(p.second)];
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
