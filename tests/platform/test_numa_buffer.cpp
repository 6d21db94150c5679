#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "platform/node_touch.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/page_placement.hpp"

using namespace hwcomm;

TEST(HwlocTopology, ListsTheNodesOfThisMachine) {
    HwlocTopology topo;
    const auto nodes = topo.numa_os_indexes();
    ASSERT_FALSE(nodes.empty());
    EXPECT_NE(topo.numa_node(nodes.front()), nullptr);
    EXPECT_EQ(topo.numa_node(100000), nullptr);
    EXPECT_EQ(topo.numa_node(-1), nullptr);
    unsigned cores = 0;
    for (int n : nodes) cores += topo.cores_of_numa(n);
    const int all_cores = hwloc_get_nbobjs_by_type(topo.get(), HWLOC_OBJ_CORE);
    EXPECT_EQ(cores, static_cast<unsigned>(all_cores));
    EXPECT_EQ(topo.cores_of_numa(100000), 0u);
}

TEST(NumaBuffer, PlacementOnNodeZeroIsVerified) {
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    NumaBuffer buf(topo, node, 8 << 20);
    ASSERT_NE(buf.data(), nullptr);
    EXPECT_EQ(buf.size(), 8u << 20);
    const Placement& p = buf.placement();
    EXPECT_EQ(p.requested_node, node);
    EXPECT_TRUE(p.verified) << p.note;
    EXPECT_EQ(p.actual_nodes, std::vector<int>{node});
    // The memory is usable end to end.
    std::memset(buf.data(), 0x5a, buf.size());
    EXPECT_EQ(buf.data()[buf.size() - 1], std::byte{0x5a});
}

TEST(NodeTouch, EveryPageOfALargeOddSizedBufferIsTouchedOnceFromThreadsOfTheNode) {
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    // Above the one-thread limit, not a whole number of pages: every page and the last byte.
    const std::size_t bytes = (std::size_t{65} << 20) + 123;
    std::vector<std::byte> data(bytes, std::byte{0x5a});
    touch_pages_on_node(topo, node, data.data(), bytes);
    const std::size_t page = page_size();
    std::size_t touched = 0, pages = 0;
    for (std::size_t off = 0; off < bytes; off += page, ++pages) touched += data[off] == std::byte{0};
    EXPECT_EQ(touched, pages);
    EXPECT_EQ(data[bytes - 1], std::byte{0});
    // Only the first byte of each page (and the last): the rest is untouched.
    std::size_t zeros = static_cast<std::size_t>(std::count(data.begin(), data.end(), std::byte{0}));
    EXPECT_LE(zeros, pages + 1 + topo.cores_of_numa(node));  // each chunk's last byte too
}

TEST(NumaBuffer, ABufferTouchedFromSeveralThreadsIsPlacedAndVerifiedOnItsNode) {
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    NumaBuffer buf(topo, node, std::size_t{256} << 20);
    EXPECT_TRUE(buf.placement().verified) << buf.placement().note;
}

TEST(NumaBuffer, MoveTransfersOwnership) {
    HwlocTopology topo;
    NumaBuffer a(topo, topo.numa_os_indexes().front(), 4096);
    std::byte* data = a.data();
    NumaBuffer b(std::move(a));
    EXPECT_EQ(b.data(), data);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): checking the moved-from state
    EXPECT_EQ(b.size(), 4096u);
}

TEST(NumaBuffer, AbsentNodeIsAMeasurementError) {
    HwlocTopology topo;
    EXPECT_THROW(NumaBuffer(topo, 4096, 4096), MeasurementError);
}

TEST(NumaBuffer, ImpossibleSizeIsAMeasurementError) {
    HwlocTopology topo;
    EXPECT_THROW(NumaBuffer(topo, topo.numa_os_indexes().front(), std::size_t{1} << 62), MeasurementError);
}

TEST(PagePlacement, LocatesTheTouchedPagesOfAForeignBuffer) {
    HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    const std::size_t page = page_size();
    EXPECT_GE(page, 4096u);
    EXPECT_EQ(page & (page - 1), 0u) << "a power of two";
    std::vector<std::byte> buffer(16 * page);
    touch_pages(buffer.data(), buffer.size());
    const Placement p = locate_pages(topo, buffer.data(), buffer.size(), node);
    ASSERT_FALSE(p.actual_nodes.empty()) << p.note;
    // One node: the pages are all there. Several: verified exactly when they all are on the requested node.
    if (topo.numa_os_indexes().size() == 1) {
        EXPECT_TRUE(p.verified) << p.note;
    }
    EXPECT_EQ(p.verified, p.actual_nodes == std::vector<int>{node});
    const auto j = placement_to_json(p);
    EXPECT_EQ(j.at("requested_node").get<int>(), node);
    EXPECT_EQ(j.at("verified").get<bool>(), p.verified);
}
