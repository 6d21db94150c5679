// The arithmetic of hwcomm gpumem, on numbers worked out by hand.
#include <gtest/gtest.h>

#include <set>

#include "methods/gpumem/gpumem_model.hpp"

using namespace hwcomm::gpumem;

TEST(GpumemModel, TheoreticalDramBandwidthIsClockTimesTwoTimesBusWidth) {
    // 2619 MHz x 2 x 5120 bit / 8 = 3352.3 GB/s (an H100 SXM's attributes).
    EXPECT_NEAR(theoretical_dram_gbps(2619000, 5120), 3352.32, 0.01);
    EXPECT_NEAR(theoretical_dram_gbps(1000000, 64), 16.0, 1e-9);
}

TEST(GpumemModel, LittlesLawBoundIsWarpsTimesBytesInFlightOverLatencyCappedAtPeak) {
    // 132 SMs x 8 warps, one float per lane (128 B per warp) at 600 ns: 225.28 GB/s.
    EXPECT_NEAR(littles_law_bound_gbps(132 * 8, 128, 600, 3352), 225.28, 1e-9);
    EXPECT_TRUE(latency_bound(132 * 8, 128, 600, 3352));
    // 64 warps per SM, float4 x 4 in flight (2048 B per warp): 46 TB/s uncapped -> the peak.
    EXPECT_DOUBLE_EQ(littles_law_bound_gbps(132 * 64, 2048, 600, 3352), 3352);
    EXPECT_FALSE(latency_bound(132 * 64, 2048, 600, 3352));
    // Needed in flight: 600 ns x 3352 GB/s = 2.0 MB for the whole GPU.
    EXPECT_NEAR(bytes_in_flight_needed(600, 3352), 2011200, 1e-6);
    EXPECT_THROW(littles_law_bound_gbps(1, 1, 0, 1), std::invalid_argument);
}

TEST(GpumemModel, SectorsPerWarpRequestFollowTheStride) {
    // 4-byte elements: 4 sectors at stride 1, doubling to 32 at stride 8, flat after.
    EXPECT_EQ(sectors_per_warp_request(1, 4), 4u);
    EXPECT_EQ(sectors_per_warp_request(2, 4), 8u);
    EXPECT_EQ(sectors_per_warp_request(4, 4), 16u);
    EXPECT_EQ(sectors_per_warp_request(8, 4), 32u);
    EXPECT_EQ(sectors_per_warp_request(32, 4), 32u);
    EXPECT_EQ(sectors_per_warp_request(128, 4), 32u);
    // 16-byte elements: 16 sectors at stride 1, 32 from stride 2 on (at most a factor 2).
    EXPECT_EQ(sectors_per_warp_request(1, 16), 16u);
    EXPECT_EQ(sectors_per_warp_request(2, 16), 32u);
    EXPECT_EQ(sectors_per_warp_request(128, 16), 32u);
    // The seed's tables for 400 MB of floats (n = 100 M): 12.5 M sectors at stride 1 ... 100 M at 8.
    EXPECT_EQ(strided_sectors(100'000'000, 1, 4), 12'500'000u);
    EXPECT_EQ(strided_sectors(100'000'000, 8, 4), 100'000'000u);
    EXPECT_EQ(strided_sectors(100'000'000, 1, 4) * 8, strided_sectors(100'000'000, 32, 4));
}

// layout=ring128: the nodes in address order, still one cycle through all of them.
TEST(GpumemModel, TheRingVisitsTheNodesInAddressOrder) {
    for (std::uint32_t nodes : {1u, 2u, 5u, 4097u}) {
        const auto next = chase_ring(nodes);
        ASSERT_EQ(next.size(), nodes);
        EXPECT_TRUE(is_single_cycle(next)) << nodes << " nodes";
        for (std::uint32_t i = 0; i + 1 < nodes; ++i) EXPECT_EQ(next[i], i + 1);
        EXPECT_EQ(next[nodes - 1], 0u);
        EXPECT_EQ(walk(next, 0, 3), 3u % nodes);
    }
}

TEST(GpumemModel, ThePointerChaseIsOneCycleThroughTheWholeFootprint) {
    for (std::uint32_t nodes : {1u, 2u, 3u, 64u, 4097u, 1u << 16}) {
        const auto next = chase_cycle(nodes, 42 + nodes);
        ASSERT_EQ(next.size(), nodes);
        EXPECT_TRUE(is_single_cycle(next)) << nodes << " nodes";
        EXPECT_EQ(walk(next, 0, nodes), 0u);  // back at the start after visiting every node
    }
    EXPECT_EQ(chase_cycle(1000, 7), chase_cycle(1000, 7));
    EXPECT_NE(chase_cycle(1000, 7), chase_cycle(1000, 8));
    EXPECT_FALSE(is_single_cycle({1, 0, 3, 2}));  // two cycles
    EXPECT_FALSE(is_single_cycle({0, 1}));
    const auto next = chase_cycle(5, 1);
    EXPECT_EQ(walk(next, 0, 2), next[next[0]]);
}

TEST(GpumemModel, ChaseLayoutCoversTheFootprintWithBoundedNodes) {
    const ChaseLayout l1 = chase_layout(4096);
    EXPECT_EQ(l1.node_stride_bytes, 64u);
    EXPECT_EQ(l1.nodes, 64u);
    const ChaseLayout big = chase_layout(4ull << 30);
    EXPECT_EQ(big.nodes, 1u << 22);
    EXPECT_EQ(big.node_stride_bytes * big.nodes, 4ull << 30);
    EXPECT_EQ(chase_layout(16).nodes, 1u);
}

TEST(GpumemModel, TimelinesAreRelativePerSmAndBlockGapsCountFromTheLatestEnd) {
    std::vector<WarpRecord> r{
        {0, 0, 0, 1000, 1500}, {0, 0, 1, 1010, 1600},  // SM 0, block 0: ends at 1600
        {0, 1, 0, 2000, 2400},                          // SM 0, block 1: starts 400 after
        {1, 2, 0, 50, 90},     {1, 3, 0, 60, 100},      // SM 1: both in the first wave
        {1, 4, 0, 190, 300},                            // starts 90 after block 3 ended
    };
    make_relative_per_sm(r);
    EXPECT_EQ(r[0].start, 0u);
    EXPECT_EQ(r[1].stop, 600u);
    EXPECT_EQ(r[3].start, 0u);
    EXPECT_EQ(r[5].start, 140u);
    const auto gaps = block_gaps(r);
    ASSERT_EQ(gaps.size(), 2u);
    EXPECT_DOUBLE_EQ(gaps[0], 400);
    EXPECT_DOUBLE_EQ(gaps[1], 90);
}

TEST(GpumemModel, ATimelineKeepsTheFirstWarpsOfItsLowestSmsInStartOrder) {
    // SMs 7, 3, 5, 9 and 1 (one SM id more than kept): 1, 3 and 5 are the lowest three.
    std::vector<WarpRecord> r{
        {7, 0, 0, 5, 9}, {3, 1, 0, 40, 50}, {3, 1, 1, 10, 20}, {5, 2, 0, 30, 35},
        {9, 3, 0, 1, 2}, {1, 4, 0, 25, 26},  {3, 1, 2, 15, 16}, {1, 4, 1, 0, 3},
    };
    const auto kept = first_warps_of_lowest_sms(r, 3, 2);
    ASSERT_EQ(kept.size(), 5u);  // SM 1: 2 warps, SM 3: its first 2 of 3, SM 5: 1
    std::vector<std::uint64_t> starts;
    for (const auto& w : kept) {
        EXPECT_TRUE(w.sm == 1 || w.sm == 3 || w.sm == 5) << w.sm;
        starts.push_back(w.start);
    }
    EXPECT_EQ(starts, (std::vector<std::uint64_t>{0, 10, 15, 25, 30}));  // SM 3's warp at 40 is its third
    EXPECT_TRUE(first_warps_of_lowest_sms({}, 4, 512).empty());
}


// Issue 22: the SM that chases moves the latency, so beyond every SM-private
// cache a chase of remote memory is split over SMs spread across the GPU,
// each segment long enough for the globaltimer, and the next sample starts
// one SM on; the GPU's own memory keeps one SM (its L2 partitions).
TEST(GpumemModel, ARemoteChaseBeyondTheL1IsSplitOverSpreadSmsAndMovesOnBySample) {
    const auto local = chase_segments(false, 64u << 20, 4096, 340, 132);
    EXPECT_EQ(local.count, 1u);
    EXPECT_FALSE(local.rotate);
    EXPECT_EQ(local.warm_hops, 0u);
    // Below 1 MiB one SM, no rotation, no untimed hops.
    const auto small = chase_segments(true, 512u << 10, 4096, 140, 132);
    EXPECT_EQ(small.count, 1u);
    EXPECT_FALSE(small.rotate);
    EXPECT_EQ(small.warm_hops, 0u);
    // The first run of a footprint knows no latency yet: one segment, but on a rotating SM.
    const auto first = chase_segments(true, 4u << 20, 4096, 0, 132);
    EXPECT_EQ(first.count, 1u);
    EXPECT_TRUE(first.rotate);
    EXPECT_EQ(first.warm_hops, kChaseSegmentWarmHops);
    // Peer memory (~850 ns): 4096 x 850 ns = 3.5 ms, 54 segments of 64 us: capped at 16.
    EXPECT_EQ(chase_segments(true, 4u << 20, 4096, 850, 132).count, kMaxChaseSegments);
    // ~140 ns: 4096 x 140 = 573 us, 8 whole segments of 64 us.
    EXPECT_EQ(chase_segments(true, 4u << 20, 4096, 140, 132).count, 8u);
    // L1-fast loads beyond 1 MiB cannot happen, but a fast one stays one segment.
    EXPECT_EQ(chase_segments(true, 4u << 20, 4096, 10, 132).count, 1u);
    // Never more segments than SMs, nor than steps; one SM: nothing to rotate.
    EXPECT_EQ(chase_segments(true, 4u << 20, 4096, 850, 4).count, 4u);
    EXPECT_EQ(chase_segments(true, 4u << 20, 3, 1e6, 132).count, 3u);
    EXPECT_FALSE(chase_segments(true, 4u << 20, 4096, 850, 1).rotate);

    // 16 segments over 132 SMs: 8 or 9 blocks apart, all distinct.
    std::set<unsigned> blocks;
    for (unsigned j = 0; j < 16; ++j) blocks.insert(chase_block(0, j, 16, 132));
    EXPECT_EQ(blocks.size(), 16u);
    EXPECT_EQ(chase_block(0, 0, 16, 132), 0u);
    EXPECT_EQ(chase_block(0, 1, 16, 132), 8u);
    EXPECT_EQ(chase_block(0, 15, 16, 132), 123u);
    // Sample by sample the segments move on by one block; after 132 samples every block has chased segment 0.
    EXPECT_EQ(chase_block(1, 0, 16, 132), 1u);
    EXPECT_EQ(chase_block(131, 15, 16, 132), (131u + 123u) % 132u);
    std::set<unsigned> firsts;
    for (std::uint64_t s = 0; s < 132; ++s) firsts.insert(chase_block(s, 0, 16, 132));
    EXPECT_EQ(firsts.size(), 132u);
    EXPECT_EQ(chase_block(5, 0, 1, 0), 0u);
}
