#include <gtest/gtest.h>

#include "core/graph.hpp"
#include "core/graph_json.hpp"

using namespace hwcomm;

TEST(PciAddress, ParsesNvmlAndHwlocFormsToTheSameDevice) {
    auto nvml = PciAddress::parse("00000000:00:06.0");
    auto hwloc = PciAddress::parse("0000:00:06.0");
    ASSERT_TRUE(nvml && hwloc);
    EXPECT_TRUE(nvml->same_device(*hwloc));
    EXPECT_EQ(nvml->to_string(), "0000:00:06.0");
    auto upper = PciAddress::parse("0000:1A:00.1");
    ASSERT_TRUE(upper);
    EXPECT_EQ(upper->bus, 0x1a);
    EXPECT_EQ(upper->function, 1);
}

TEST(PciAddress, RecognisesNvmlHiddenRemoteSentinelAndRejectsGarbage) {
    auto s = PciAddress::parse("FFFFFFFF:FF:FF.0");
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->is_unknown_sentinel());
    EXPECT_FALSE(PciAddress::parse("0000:00:06"));
    EXPECT_FALSE(PciAddress::parse("zz:00.0"));
    EXPECT_FALSE(PciAddress::parse("0000:00:06.0 trailing"));
}

TEST(Graph, RejectsDuplicateIdsAndDanglingEdges) {
    Graph g;
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode});
    EXPECT_THROW(g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode}), std::invalid_argument);
    EXPECT_THROW(g.add_edge({.a = "numa0", .b = "gpu9"}), std::invalid_argument);
}

TEST(GraphJson, RoundTripKeepsVerticesEdgesAndLinkFacts) {
    Graph g;
    Vertex gpu{.id = "gpu0", .kind = VertexKind::Gpu, .name = "NVIDIA H200"};
    gpu.pci = PciAddress::parse("0000:00:06.0");
    gpu.gpu = GpuInfo{.model = "NVIDIA H200", .uuid = "GPU-1", .cuda_ordinal = 0, .cc_major = 9, .cc_minor = 0};
    g.add_vertex(gpu);
    g.add_vertex({.id = "nvswitch-fabric", .kind = VertexKind::NvSwitchFabric});
    Edge e{.a = "gpu0", .b = "nvswitch-fabric", .kind = EdgeKind::NvLink, .gbps_per_direction = 478.125};
    e.nvlink = NvLinkBond{"4.0", 6, 18, 26.5625};
    g.add_edge(e);
    g.notes.push_back("note");

    Graph back = graph_from_json(graph_to_json(g));
    ASSERT_EQ(back.vertices().size(), 2u);
    ASSERT_EQ(back.edges().size(), 1u);
    const auto* v = back.find("gpu0");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->gpu->cc_major, 9);
    EXPECT_EQ(v->pci->to_string(), "0000:00:06.0");
    EXPECT_EQ(back.edges()[0].nvlink->links, 18);
    EXPECT_DOUBLE_EQ(back.edges()[0].gbps_per_direction, 478.125);
    EXPECT_EQ(back.notes.at(0), "note");
}

TEST(GraphJson, ForeignDocumentIsRejectedWithAReason) {
    EXPECT_THROW(graph_from_json(nlohmann::json{{"schema", "other"}}), std::runtime_error);
}
