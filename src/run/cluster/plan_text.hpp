#pragma once
// What `hwcomm run --plan` prints for a cluster: the schedule's kind, its
// rounds of concurrent pairs, and an estimate of the inter-node time.
#include <string>
#include <vector>

#include "run/cluster/pair_schedule.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

// mpi-host near-nic records of one pair: sendrecv and put, a->b, b->a, bi.
inline constexpr std::size_t kHostRecordsPerPair = 6;

// `names`: node names by rank.
std::string describe_cluster_plan(const PairSchedule& schedule, const std::vector<std::string>& names,
                                  const RunOptions& options);

// The schedule as the results file's cluster.schedule: kind, rounds of name pairs, estimate_s.
nlohmann::json schedule_to_json(const PairSchedule& schedule, const std::vector<std::string>& names, double estimate_s);

}  // namespace hwcomm
