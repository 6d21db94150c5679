// The cluster schedule and the pure helpers of a cluster run (no MPI needed).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/error.hpp"
#include "run/cluster/cluster_filters.hpp"
#include "run/cluster/node_names.hpp"
#include "run/cluster/pair_records.hpp"
#include "run/cluster/pair_schedule.hpp"

namespace hwcomm {
namespace {

// Every round's pairs are disjoint, ordered (first < second), within range; no pair twice.
void expect_well_formed(const PairSchedule& s, int nodes) {
    std::set<NodePair> seen;
    for (const auto& round : s.rounds) {
        std::set<int> busy;
        EXPECT_FALSE(round.empty());
        for (const NodePair& p : round) {
            EXPECT_LT(p.first, p.second);
            EXPECT_GE(p.first, 0);
            EXPECT_LT(p.second, nodes);
            EXPECT_TRUE(busy.insert(p.first).second) << "node " << p.first << " twice in a round";
            EXPECT_TRUE(busy.insert(p.second).second) << "node " << p.second << " twice in a round";
            EXPECT_TRUE(seen.insert(p).second) << "pair measured twice";
        }
    }
}

TEST(PairSchedule, AllPairsCoversEveryPairInNMinusOneRoundsForEvenN) {
    for (int n : {2, 4, 6, 8}) {
        const PairSchedule s = make_pair_schedule(n);
        EXPECT_EQ(s.kind, "all-pairs");
        expect_well_formed(s, n);
        EXPECT_EQ(s.rounds.size(), static_cast<std::size_t>(n - 1));
        EXPECT_EQ(s.pair_count(), static_cast<std::size_t>(n * (n - 1) / 2));
        for (const auto& round : s.rounds) EXPECT_EQ(round.size(), static_cast<std::size_t>(n / 2));
    }
}

TEST(PairSchedule, AllPairsForOddNTakesNRounds) {
    for (int n : {3, 5, 7}) {
        const PairSchedule s = make_pair_schedule(n);
        expect_well_formed(s, n);
        EXPECT_EQ(s.rounds.size(), static_cast<std::size_t>(n));
        EXPECT_EQ(s.pair_count(), static_cast<std::size_t>(n * (n - 1) / 2));
    }
}

TEST(PairSchedule, OneNodeHasNoPairs) {
    const PairSchedule s = make_pair_schedule(1);
    EXPECT_TRUE(s.rounds.empty());
    EXPECT_EQ(s.partner_of(0, 0), -1);
    EXPECT_THROW(make_pair_schedule(0), std::invalid_argument);
}

TEST(PairSchedule, PartnerOfIsSymmetric) {
    const PairSchedule s = make_pair_schedule(4);
    for (std::size_t r = 0; r < s.rounds.size(); ++r)
        for (int rank = 0; rank < 4; ++rank) {
            const int p = s.partner_of(r, rank);
            ASSERT_GE(p, 0);
            EXPECT_EQ(s.partner_of(r, p), rank);
        }
}

TEST(PairSchedule, LargeJobsGetRingPlusRandomInFewRounds) {
    for (int n : {9, 16, 100, 1000}) {
        const PairSchedule s = make_pair_schedule(n, {8, 2, 1});
        EXPECT_EQ(s.kind, "ring+random");
        expect_well_formed(s, n);
        // The ring is there: every (i, i+1 mod n).
        std::set<NodePair> pairs;
        for (const auto& round : s.rounds) pairs.insert(round.begin(), round.end());
        for (int i = 0; i < n; ++i) EXPECT_TRUE(pairs.count({std::min(i, (i + 1) % n), std::max(i, (i + 1) % n)}));
        // Each node has its ring neighbours and about 2 * random_partners others: O(N) pairs, not N^2/2.
        EXPECT_LE(s.pair_count(), static_cast<std::size_t>(n) * 3);
        EXPECT_GE(s.pair_count(), static_cast<std::size_t>(n) * 2);  // ring + one random partner per node at least
        std::map<int, int> degree;
        for (const NodePair& p : pairs) {
            ++degree[p.first];
            ++degree[p.second];
        }
        int max_degree = 0;
        for (const auto& [node, d] : degree) max_degree = std::max(max_degree, d);
        // Greedy packing needs at most 2*degree-1 rounds: bounded by the degree, far below N.
        EXPECT_LE(s.rounds.size(), static_cast<std::size_t>(2 * max_degree - 1));
        EXPECT_LE(s.rounds.size(), static_cast<std::size_t>(n));
    }
}

TEST(PairSchedule, SameSeedSameScheduleOtherSeedOther) {
    const PairSchedule a = make_pair_schedule(50, {8, 2, 7});
    const PairSchedule b = make_pair_schedule(50, {8, 2, 7});
    const PairSchedule c = make_pair_schedule(50, {8, 2, 8});
    EXPECT_EQ(a.rounds, b.rounds);
    EXPECT_NE(a.rounds, c.rounds);
}

TEST(PairSchedule, EstimateScalesWithRoundsRecordsAndSizes) {
    const PairSchedule s = make_pair_schedule(4);  // 3 rounds
    EXPECT_NEAR(estimate_schedule_seconds(s, 6, 10, 0.2), 3 * 6 * 10 * (0.2 + 0.02), 1e-9);
}

TEST(NodeNames, PatternsExpandAndCollisionsGetTheRank) {
    EXPECT_EQ(expand_node_name("n%r", 3, "vm"), "n3");
    EXPECT_EQ(expand_node_name("%h-%r", 1, "vm"), "vm-1");
    EXPECT_EQ(expand_node_name("", 1, "vm"), "vm");
    EXPECT_THROW(expand_node_name("a:b", 0, "vm"), UsageError);
    EXPECT_THROW(expand_node_name("n%x", 0, "vm"), UsageError);
    EXPECT_EQ(unique_node_names({"vm", "vm", "other"}), (std::vector<std::string>{"vm-r0", "vm-r1", "other"}));
}

LocalEnds ends(const std::string& node, bool far, bool gpu) {
    LocalEnds e;
    e.node = node;
    e.near_numa = 0;
    e.near_numa_id = "numa0";
    if (far) {
        e.far_numa = 1;
        e.far_numa_id = "numa1";
    }
    if (gpu) {
        e.gpu_ordinal = 0;
        e.gpu_id = "gpu0";
    }
    return e;
}

TEST(PairRecords, HostPairHasSixRecordsTwelveWithAFarNodeAndGpuAddsThree) {
    const auto plain = records_of_pair(ends("a", false, false), ends("b", false, false), {});
    EXPECT_EQ(plain.size(), 6u);  // sendrecv, put x (a->b uni, a->b bi, b->a uni)
    std::set<std::string> keys;
    for (const auto& r : plain) keys.insert(r.key);
    EXPECT_EQ(keys.size(), 6u);
    EXPECT_EQ(plain.front().src, "a:numa0");
    EXPECT_EQ(plain.front().dst, "b:numa0");
    EXPECT_EQ(records_of_pair(ends("a", true, false), ends("b", true, false), {}).size(), 12u);
    EXPECT_EQ(records_of_pair(ends("a", true, false), ends("b", false, false), {}).size(), 6u);  // far needs both
    const auto gpu = records_of_pair(ends("a", false, true), ends("b", false, true), {true, true, false});
    ASSERT_EQ(gpu.size(), 9u);
    EXPECT_EQ(gpu.back().method, "mpi-gpu");
    EXPECT_EQ(gpu.back().params.at("path"), "staged");
    EXPECT_EQ(gpu.back().src, "b:gpu0");
}

TEST(ClusterFilters, MpiMethodFiltersChooseInterNodeMethodsOnly) {
    const ClusterFilters none = split_cluster_filters({});
    EXPECT_TRUE(none.measure_locally && none.mpi_host && none.mpi_gpu);
    const ClusterFilters both = split_cluster_filters({"method=cpu-read", "method=mpi-host", "src=numa0"});
    EXPECT_EQ(both.local, (std::vector<std::string>{"method=cpu-read", "src=numa0"}));
    EXPECT_TRUE(both.measure_locally);
    EXPECT_TRUE(both.mpi_host);
    EXPECT_FALSE(both.mpi_gpu);
    const ClusterFilters only = split_cluster_filters({"method=mpi-*"});
    EXPECT_FALSE(only.measure_locally);
    EXPECT_TRUE(only.mpi_host && only.mpi_gpu);
    const ClusterFilters local = split_cluster_filters({"method=cpu-*"});
    EXPECT_TRUE(local.measure_locally);
    EXPECT_FALSE(local.mpi_host || local.mpi_gpu);
}

}  // namespace
}  // namespace hwcomm
