// Worker placement: one worker per physical core, SMT siblings only when
// asked; on hwloc XML exports of 2-socket SMT machines and on this machine.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "platform/thread_binding.hpp"

using namespace hwcomm;

namespace {

HwlocTopology load_fixture(const std::string& name) {
    hwloc_topology_t raw = nullptr;
    hwloc_topology_init(&raw);
    HwlocTopology topo(raw);
    const std::string path = std::string(HWCOMM_FIXTURES) + "/hwloc/" + name;
    if (hwloc_topology_set_xml(raw, path.c_str()) != 0 || hwloc_topology_load(raw) != 0)
        throw std::runtime_error("cannot load " + path);
    return topo;
}

// The core object holding a PU, by the PU's OS index.
hwloc_obj_t core_of_pu(const HwlocTopology& topo, int pu) {
    hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(topo.get(), static_cast<unsigned>(pu));
    return obj ? hwloc_get_ancestor_obj_by_type(topo.get(), HWLOC_OBJ_CORE, obj) : nullptr;
}

struct Fixture {
    const char* file;
    unsigned cores_per_node;
};

class CoreSlotsOnFixture : public ::testing::TestWithParam<Fixture> {};

}  // namespace

TEST_P(CoreSlotsOnFixture, OneWorkerPerCoreOnTheFirstPuOfEach) {
    const HwlocTopology topo = load_fixture(GetParam().file);
    const unsigned cores = GetParam().cores_per_node;
    for (int node : topo.numa_os_indexes()) {
        const auto slots = core_slots_of_numa(topo, node, false);
        ASSERT_EQ(slots.size(), cores) << "node " << node;
        std::set<int> seen_cores;
        for (const CoreSlot& s : slots) {
            hwloc_obj_t core = core_of_pu(topo, s.pu);
            ASSERT_NE(core, nullptr);
            EXPECT_EQ(static_cast<int>(core->logical_index), s.core);
            // The first PU of the core, and inside the node.
            EXPECT_EQ(hwloc_bitmap_first(core->cpuset), s.pu);
            EXPECT_TRUE(hwloc_bitmap_isset(topo.numa_node(node)->cpuset, static_cast<unsigned>(s.pu)));
            seen_cores.insert(s.core);
        }
        EXPECT_EQ(seen_cores.size(), cores) << "no two workers share a core";
    }
}

TEST_P(CoreSlotsOnFixture, SmtAddsTheSiblingsAfterEveryCore) {
    const HwlocTopology topo = load_fixture(GetParam().file);
    const unsigned cores = GetParam().cores_per_node;
    const auto plain = core_slots_of_numa(topo, 0, false);
    const auto smt = core_slots_of_numa(topo, 0, true);
    ASSERT_EQ(smt.size(), 2 * cores);  // 2 threads per core
    // The first `cores` workers are placed as without SMT: distinct cores first.
    EXPECT_EQ(std::vector<CoreSlot>(smt.begin(), smt.begin() + cores), plain);
    std::set<int> pus, cores_seen;
    for (const CoreSlot& s : smt) pus.insert(s.pu);
    for (std::size_t i = cores; i < smt.size(); ++i) {
        cores_seen.insert(smt[i].core);
        EXPECT_NE(hwloc_bitmap_first(core_of_pu(topo, smt[i].pu)->cpuset), smt[i].pu) << "a sibling, not a first PU";
    }
    EXPECT_EQ(pus.size(), smt.size()) << "every PU once";
    EXPECT_EQ(cores_seen.size(), cores) << "one sibling of every core";
}

INSTANTIATE_TEST_SUITE_P(TwoSocketSmt, CoreSlotsOnFixture,
                         ::testing::Values(Fixture{"32em64t-2n8c2t-pci-wholeio.xml", 8},
                                           Fixture{"24em64t-2n6c2t-pci.xml", 6}));

TEST(CoreSlots, AbsentNodeHasNone) {
    const HwlocTopology topo;
    EXPECT_TRUE(core_slots_of_numa(topo, 4096, false).empty());
}

TEST(CoreSlots, ThisMachineGivesEveryCoreOnce) {
    const HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    const auto slots = core_slots_of_numa(topo, node, false);
    ASSERT_EQ(slots.size(), topo.cores_of_numa(node));
    std::set<int> cores;
    for (const CoreSlot& s : slots) cores.insert(s.core);
    EXPECT_EQ(cores.size(), slots.size());
}

TEST(ScopedThreadBinding, SlotBindsToItsOnePu) {
    const HwlocTopology topo;
    const auto slots = core_slots_of_numa(topo, topo.numa_os_indexes().front(), false);
    const CoreSlot& last = slots.back();
    {
        ScopedThreadBinding binding(topo, last);
        ASSERT_TRUE(binding.bound()) << binding.note();
        hwloc_bitmap_t now = hwloc_bitmap_alloc();
        ASSERT_EQ(hwloc_get_cpubind(topo.get(), now, HWLOC_CPUBIND_THREAD), 0);
        EXPECT_EQ(hwloc_bitmap_weight(now), 1);
        EXPECT_EQ(hwloc_bitmap_first(now), last.pu);
        hwloc_bitmap_free(now);
        EXPECT_EQ(current_pu(topo), last.pu);
    }
}
