// Path classes on small hand-built PCIe trees (the switch cases no fixture has).
#include <gtest/gtest.h>

#include "core/paths.hpp"

using namespace hwcomm;

namespace {

// numa0 - pci0000:00 - root port rp - switch A (up au, downs ad1 ad2)
//   ad1 - switch B (up bu, down bd) - dev1;  ad2 - dev2;  ad1? no: bd - dev3 too.
// pci0000:40 on numa0 (second host bridge) - dev4;  numa1 - pci0000:80 - dev5.
Graph tree() {
    Graph g;
    g.add_vertex({.id = "package0", .kind = VertexKind::Package});
    g.add_vertex({.id = "package1", .kind = VertexKind::Package});
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0});
    g.add_vertex({.id = "numa1", .kind = VertexKind::NumaNode, .os_index = 1});
    g.add_edge({.a = "package0", .b = "numa0", .kind = EdgeKind::Membership});
    g.add_edge({.a = "package1", .b = "numa1", .kind = EdgeKind::Membership});
    g.add_edge({.a = "package0", .b = "package1", .kind = EdgeKind::Smp});
    for (const char* hb : {"pci0000:00", "pci0000:40", "pci0000:80"})
        g.add_vertex({.id = hb, .kind = VertexKind::HostBridge});
    g.add_edge({.a = "numa0", .b = "pci0000:00", .kind = EdgeKind::Membership});
    g.add_edge({.a = "numa0", .b = "pci0000:40", .kind = EdgeKind::Membership});
    g.add_edge({.a = "numa1", .b = "pci0000:80", .kind = EdgeKind::Membership});
    auto bridge = [&](const std::string& id, const std::string& port, const std::string& parent, double gbps) {
        g.add_vertex({.id = id, .kind = VertexKind::PciBridge, .attrs = {{"pcie_port", port}}});
        g.add_edge({.a = parent, .b = id, .kind = EdgeKind::Pcie, .gbps_per_direction = gbps});
    };
    auto device = [&](const std::string& id, VertexKind kind, const std::string& parent, double gbps) {
        g.add_vertex({.id = id, .kind = kind});
        g.add_edge({.a = parent, .b = id, .kind = EdgeKind::Pcie, .gbps_per_direction = gbps});
    };
    bridge("rp", "root", "pci0000:00", 0);
    bridge("au", "upstream", "rp", 31.5);
    bridge("ad1", "downstream", "au", 0);
    bridge("ad2", "downstream", "au", 0);
    bridge("bu", "upstream", "ad1", 15.75);
    bridge("bd", "downstream", "bu", 0);
    device("dev1", VertexKind::Gpu, "bd", 15.75);
    device("dev3", VertexKind::Gpu, "bd", 7.88);
    device("dev2", VertexKind::Gpu, "ad2", 31.5);
    device("dev4", VertexKind::Gpu, "pci0000:40", 31.5);
    device("dev5", VertexKind::Gpu, "pci0000:80", 31.5);
    device("dev6", VertexKind::Gpu, "pci0000:00", 63.0);
    return g;
}

std::string cls(const Graph& g, const char* a, const char* b) { return classify_path(g, a, b).label(); }

}  // namespace

TEST(PathClass, FollowsNvidiaSmiSemantics) {
    const Graph g = tree();
    EXPECT_EQ(cls(g, "dev1", "dev1"), "X");
    EXPECT_EQ(cls(g, "dev1", "dev3"), "PIX");  // one switch (B)
    EXPECT_EQ(cls(g, "dev1", "dev2"), "PXB");  // switches B and A
    EXPECT_EQ(cls(g, "dev2", "dev6"), "PHB");  // through the host bridge
    EXPECT_EQ(cls(g, "dev1", "dev4"), "NODE"); // two host bridges of numa0
    EXPECT_EQ(cls(g, "dev1", "dev5"), "SYS");  // across the SMP link
    EXPECT_EQ(cls(g, "dev5", "numa1"), "PHB");
    EXPECT_EQ(cls(g, "dev5", "numa0"), "SYS");
    EXPECT_EQ(classify_path(g, "dev1", "dev5").kind, PathClass::Sys);
    EXPECT_THROW(classify_path(g, "dev1", "gpu7"), std::invalid_argument);
}

TEST(PathClass, NvLinkThroughSwitchesCountsTheSmallerBond) {
    Graph g = tree();
    g.add_vertex({.id = "fabric", .kind = VertexKind::NvSwitchFabric});
    Edge a{.a = "dev1", .b = "fabric", .kind = EdgeKind::NvLink, .gbps_per_direction = 478.125};
    a.nvlink = NvLinkBond{"4.0", 6, 18, 26.5625};
    Edge b{.a = "dev5", .b = "fabric", .kind = EdgeKind::NvLink, .gbps_per_direction = 318.75};
    b.nvlink = NvLinkBond{"4.0", 6, 12, 26.5625};
    g.add_edge(a);
    g.add_edge(b);
    EXPECT_EQ(cls(g, "dev1", "dev5"), "NV12");
    const auto path = find_path(g, "dev1", "dev5");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices, (std::vector<std::string>{"dev1", "fabric", "dev5"}));
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 318.75);
}

TEST(Paths, RouteAndBottleneckThroughThePcieTree) {
    const Graph g = tree();
    const auto path = find_path(g, "dev3", "dev2");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices, (std::vector<std::string>{"dev3", "bd", "bu", "ad1", "au", "ad2", "dev2"}));
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 7.88);
    ASSERT_EQ(path->edges.size(), 6u);
    EXPECT_EQ(g.edges()[path->edges[0]].b, "dev3");
    // Devices do not relay: dev1 -> dev6 climbs to the host bridge.
    const auto up = find_path(g, "dev1", "dev6");
    ASSERT_TRUE(up);
    EXPECT_EQ(up->vertices.back(), "dev6");
    EXPECT_EQ(up->vertices[up->vertices.size() - 2], "pci0000:00");
    EXPECT_EQ(host_bridge_of(g, "dev1"), "pci0000:00");
    EXPECT_EQ(numa_nodes_of(g, "dev4"), std::vector<std::string>{"numa0"});
}

TEST(Paths, UnconnectedVerticesHaveNoPath) {
    Graph g = tree();
    g.add_vertex({.id = "lonely", .kind = VertexKind::PciDevice});
    EXPECT_FALSE(find_path(g, "dev1", "lonely"));
    EXPECT_THROW(find_path(g, "dev1", "nothing"), std::invalid_argument);
}
