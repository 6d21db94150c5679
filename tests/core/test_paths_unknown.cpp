// A link rate that no source gives is unknown, never the smallest known rate:
// the path's bottleneck is unknown and names the link; JSON writes null.
#include <gtest/gtest.h>

#include "core/graph_json.hpp"
#include "core/paths.hpp"

using namespace hwcomm;

namespace {

Graph tree_with_unrated_link() {
    Graph g;
    g.add_vertex({.id = "hb", .kind = VertexKind::HostBridge});
    g.add_vertex({.id = "root", .kind = VertexKind::PciBridge});
    g.add_vertex({.id = "fast", .kind = VertexKind::PciDevice});
    g.add_vertex({.id = "unrated", .kind = VertexKind::PciDevice});
    g.add_edge({.a = "hb", .b = "root", .kind = EdgeKind::Pcie, .internal = true});
    g.add_edge({.a = "root", .b = "fast", .kind = EdgeKind::Pcie, .gbps_per_direction = 31.5});
    g.add_edge({.a = "root", .b = "unrated", .kind = EdgeKind::Pcie});
    return g;
}

}  // namespace

TEST(UnknownRate, PathOverAnUnratedLinkHasAnUnknownBottleneckNamingIt) {
    const Graph g = tree_with_unrated_link();
    const auto path = find_path(g, "fast", "unrated");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->bottleneck_gbps, 0.0);
    ASSERT_TRUE(path->unknown_edge);
    EXPECT_EQ(g.edges()[*path->unknown_edge].b, "unrated");
    // Internal links never limit and are never unknown.
    const auto up = find_path(g, "fast", "hb");
    ASSERT_TRUE(up);
    EXPECT_DOUBLE_EQ(up->bottleneck_gbps, 31.5);
    EXPECT_FALSE(up->unknown_edge);
}

TEST(UnknownRate, JsonWritesNullAndReadsItBack) {
    const Graph g = tree_with_unrated_link();
    const auto doc = graph_to_json(g);
    EXPECT_TRUE(doc["edges"][2]["gbps_per_direction"].is_null());
    EXPECT_EQ(doc["edges"][1]["gbps_per_direction"].get<double>(), 31.5);
    EXPECT_TRUE(doc["edges"][0]["internal"].get<bool>());
    const Graph back = graph_from_json(doc);
    EXPECT_EQ(back.edges()[2].gbps_per_direction, 0.0);
    EXPECT_TRUE(back.edges()[0].internal);
}
