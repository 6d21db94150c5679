#include <gtest/gtest.h>

#include "platform/thread_binding.hpp"

using namespace hwcomm;

namespace {

struct Bitmap {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    ~Bitmap() { hwloc_bitmap_free(set); }
};

}  // namespace

TEST(ScopedThreadBinding, BindsToTheNodeAndRestoresThePreviousBinding) {
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    hwloc_obj_t numa = topo.numa_node(node);
    ASSERT_NE(numa, nullptr);
    // Start from a binding that differs from the node's cpuset: one PU.
    Bitmap one_pu;
    hwloc_bitmap_only(one_pu.set, static_cast<unsigned>(hwloc_bitmap_first(numa->cpuset)));
    ASSERT_EQ(hwloc_set_cpubind(topo.get(), one_pu.set, HWLOC_CPUBIND_THREAD), 0);
    {
        ScopedThreadBinding binding(topo, node);
        EXPECT_TRUE(binding.bound()) << binding.note();
        Bitmap now;
        ASSERT_EQ(hwloc_get_cpubind(topo.get(), now.set, HWLOC_CPUBIND_THREAD), 0);
        EXPECT_TRUE(hwloc_bitmap_isequal(now.set, numa->cpuset));
    }
    Bitmap after;
    ASSERT_EQ(hwloc_get_cpubind(topo.get(), after.set, HWLOC_CPUBIND_THREAD), 0);
    EXPECT_TRUE(hwloc_bitmap_isequal(after.set, one_pu.set));
    // Leave the test process as it started: all PUs of the machine.
    hwloc_set_cpubind(topo.get(), hwloc_topology_get_topology_cpuset(topo.get()), HWLOC_CPUBIND_THREAD);
}

TEST(ScopedThreadBinding, AbsentNodeIsNotBoundAndSaysWhy) {
    HwlocTopology topo;
    ScopedThreadBinding binding(topo, 4096);
    EXPECT_FALSE(binding.bound());
    EXPECT_NE(binding.note().find("4096"), std::string::npos);
}
