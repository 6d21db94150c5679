// The CPU lanes of a transfer set on this machine: teams started by one flag,
// each lane verified, the aggregate the bytes of every lane over the window.
#include <gtest/gtest.h>

#include <hwloc.h>

#include "methods/cpu/cpu_lane_group.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm {
namespace {

int first_numa() {
    const HwlocTopology topo;
    const hwloc_obj_t node = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_NUMANODE, 0);
    return node ? static_cast<int>(node->os_index) : 0;
}

std::vector<CpuLaneDef> two_lanes() {
    const int n = first_numa();
    std::vector<CpuLaneDef> defs(2);
    for (int i = 0; i < 2; ++i) {
        defs[i].spec.label = "lane" + std::to_string(i);
        defs[i].spec.method = "transfer-set";
        defs[i].src_numa = defs[i].dst_numa = defs[i].workers_numa = n;
        defs[i].threads = 1;
    }
    return defs;
}

TEST(CpuLaneGroup, EveryLaneIsVerifiedAndTheWindowCoversEveryLane) {
    CpuLaneGroup group(two_lanes(), 1 << 20, false);
    const std::size_t bytes = 256 << 10;
    group.warmup(bytes, "");
    group.reset(bytes, "");
    // The destinations hold the complement of this sample's pattern until the batch moves it.
    EXPECT_NE(group.verify(bytes, ""), "");
    const Sample s = group.measure(bytes, "");
    EXPECT_EQ(group.verify(bytes, ""), "");
    EXPECT_DOUBLE_EQ(s.bytes_per_rep, 2.0 * bytes);
    ASSERT_EQ(s.lanes.size(), 2u);
    for (const LaneSample& l : s.lanes) {
        EXPECT_DOUBLE_EQ(l.bytes_per_rep, static_cast<double>(bytes));
        EXPECT_GT(l.seconds, 0);
        EXPECT_LE(l.seconds, s.seconds);  // the window runs from the first start to the last stop
    }
    EXPECT_GE(s.extras.at("start_skew_max_s"), 0);
    EXPECT_EQ(group.lanes().size(), 2u);
    EXPECT_EQ(group.context()["cpu_lanes"].size(), 2u);
}

TEST(CpuLaneGroup, AVerifyBeforeAnyBatchOfThatSizeFails) {
    CpuLaneGroup group(two_lanes(), 1 << 20, false);
    group.reset(4096, "");
    (void)group.measure(4096, "");
    EXPECT_NE(group.verify(8192, ""), "");
}

TEST(CpuLaneGroup, ThreadsOfOneNodeAreSharedAmongItsLanes) {
    const HwlocTopology topo;
    std::vector<std::string> notes;
    const int n = first_numa();
    const auto slots = assign_team_slots(topo, {{n, 0}, {n, 0}, {n, 3}}, false, notes);
    ASSERT_EQ(slots.size(), 3u);
    EXPECT_EQ(slots[2].size(), 3u);
    const std::size_t cores = core_slots_of_numa(topo, n, false).size();
    const std::size_t left = cores > 3 ? cores - 3 : 0;
    EXPECT_EQ(slots[0].size(), std::max<std::size_t>(1, left / 2));
    EXPECT_EQ(notes.empty(), slots[0].size() + slots[1].size() + 3 <= cores);
}

}  // namespace
}  // namespace hwcomm
