#pragma once
// Which pairs of nodes a cluster run measures, in rounds of disjoint pairs
// that run at the same time. A pure function of the node count and options,
// so `hwcomm run --plan` can print it without MPI, and every rank computes
// the same schedule on its own.
//
// Small jobs (nodes <= all_pairs_max_nodes): every pair, by the circle method
// (n-1 rounds of n/2 pairs for even n, n rounds for odd n).
// Larger jobs: a ring (i, i+1) plus `random_partners` seeded random partners
// per node; the pairs are packed greedily into rounds of disjoint pairs. Each
// node has about 2 + 2 * random_partners pairs, so the rounds stay O(1) per
// node and O(N) in all (never the N^2 pairs of all-pairs).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hwcomm {

struct ScheduleOptions {
    int all_pairs_max_nodes = 8;  // above this, ring + random
    int random_partners = 2;      // per node, in ring + random
    std::uint64_t seed = 1;       // same seed, same schedule
};

using NodePair = std::pair<int, int>;  // ranks, first < second

struct PairSchedule {
    std::string kind;                         // "all-pairs" | "ring+random"
    std::vector<std::vector<NodePair>> rounds;  // pairs within a round are disjoint

    std::size_t pair_count() const;
    // The partner of `rank` in round `round`, or -1 when it sits that round out.
    int partner_of(std::size_t round, int rank) const;
};

// Throws std::invalid_argument for nodes < 1 or negative options.
PairSchedule make_pair_schedule(int nodes, const ScheduleOptions& options = {});

// Rough seconds for the schedule: rounds x records per pair x sizes x
// (time budget per size + fixed overhead per size).
double estimate_schedule_seconds(const PairSchedule& schedule, std::size_t records_per_pair, std::size_t sizes,
                                 double time_budget_s);

}  // namespace hwcomm
