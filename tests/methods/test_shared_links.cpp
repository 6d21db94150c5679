// Which transfers share their bottleneck edge: the planning of pairs-sharing-a-link.
#include <gtest/gtest.h>

#include "methods/shared_links.hpp"

using namespace hwcomm;

namespace {

// numa0 -- hb0 -- sw0 (uplink 15.75 GB/s) -- gpu0, gpu1 (15.75 each); numa0 -- hb1 -- gpu2 (31.5).
Graph switch_graph() {
    Graph g;
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0});
    g.add_vertex({.id = "hb0", .kind = VertexKind::HostBridge});
    g.add_vertex({.id = "hb1", .kind = VertexKind::HostBridge});
    g.add_vertex({.id = "sw0", .kind = VertexKind::PciBridge});
    for (const char* id : {"gpu0", "gpu1", "gpu2"}) g.add_vertex({.id = id, .kind = VertexKind::Gpu});
    g.add_edge({.a = "numa0", .b = "hb0", .kind = EdgeKind::Membership});
    g.add_edge({.a = "numa0", .b = "hb1", .kind = EdgeKind::Membership});
    g.add_edge({.a = "hb0", .b = "sw0", .kind = EdgeKind::Pcie, .gbps_per_direction = 15.75});
    g.add_edge({.a = "sw0", .b = "gpu0", .kind = EdgeKind::Pcie, .gbps_per_direction = 15.75});
    g.add_edge({.a = "sw0", .b = "gpu1", .kind = EdgeKind::Pcie, .gbps_per_direction = 15.75});
    g.add_edge({.a = "hb1", .b = "gpu2", .kind = EdgeKind::Pcie, .gbps_per_direction = 31.5});
    return g;
}

}  // namespace

TEST(SharedLinks, TwoGpusBehindOneSwitchShareItsUplinkTheThirdDoesNot) {
    const Graph g = switch_graph();
    const Vertex* n = g.find("numa0");
    const std::vector<Route> h2d{{n, g.find("gpu0")}, {n, g.find("gpu1")}, {n, g.find("gpu2")}};
    const auto pairs = pairs_sharing_bottleneck(g, h2d);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].first.dst->id, "gpu0");
    EXPECT_EQ(pairs[0].second.dst->id, "gpu1");
    const Edge& e = g.edges().at(pairs[0].shared.edge);
    EXPECT_EQ(e.a + "--" + e.b, "hb0--sw0");
    EXPECT_TRUE(pairs[0].shared.a_to_b);  // host to GPU crosses it downstream
    EXPECT_DOUBLE_EQ(pairs[0].shared.gbps, 15.75);
    EXPECT_NE(pairs[0].describe(g).find("hb0->sw0"), std::string::npos);
}

TEST(SharedLinks, OppositeDirectionsDoNotCompete) {
    const Graph g = switch_graph();
    const Vertex* n = g.find("numa0");
    const std::vector<Route> mixed{{n, g.find("gpu0")}, {g.find("gpu1"), n}};
    EXPECT_TRUE(pairs_sharing_bottleneck(g, mixed).empty());
    const auto neck = route_bottleneck(g, {g.find("gpu1"), n});
    ASSERT_TRUE(neck);
    EXPECT_FALSE(neck->a_to_b);  // upstream
}

TEST(SharedLinks, UnconnectedOrUnratedRoutesHaveNoBottleneck) {
    Graph g = switch_graph();
    g.add_vertex({.id = "gpu9", .kind = VertexKind::Gpu});
    EXPECT_FALSE(route_bottleneck(g, {g.find("numa0"), g.find("gpu9")}));
}
