// Small pieces: CPU lists, GPU renaming, the NVLink version of a GPU model.
#include <gtest/gtest.h>

#include "discover/cpu_list.hpp"
#include "discover/gpu_ids.hpp"
#include "discover/hwloc_source.hpp"

using namespace hwcomm;

TEST(CpuList, MasksAndListsAgree) {
    EXPECT_EQ(format_index_list(indexes_from_mask({0xffffffffull, 0, 0, 0})), "0-31");
    EXPECT_EQ(format_index_list(indexes_from_mask({0x0000ffff0000ffffull, 0x1})), "0-15,32-47,64");
    EXPECT_EQ(format_index_list({}), "");
    EXPECT_EQ(parse_index_list("0-3,8,10-11"), (std::vector<unsigned>{0, 1, 2, 3, 8, 10, 11}));
    EXPECT_THROW(parse_index_list("0-x"), std::invalid_argument);
}

TEST(GpuIds, RenamesSwapEdgeEndsToo) {
    Graph g;
    g.add_vertex({.id = "gpu0", .kind = VertexKind::Gpu});
    g.add_vertex({.id = "gpu1", .kind = VertexKind::Gpu});
    g.add_vertex({.id = "numa0", .kind = VertexKind::NumaNode});
    g.add_edge({.a = "numa0", .b = "gpu0", .kind = EdgeKind::Membership});
    rename_vertices(g, {{"gpu0", "gpu1"}, {"gpu1", "gpu0"}});
    EXPECT_EQ(g.edges()[0].b, "gpu1");
    EXPECT_THROW(rename_vertices(g, {{"gpu0", "numa0"}}), std::invalid_argument);
}

TEST(GpuIds, CudaOrdinalsWinWhenEveryGpuHasOne) {
    Graph g;
    for (int k = 0; k < 2; ++k) {
        Vertex v{.id = "pci:0000:0" + std::to_string(k) + ":00.0", .kind = VertexKind::Gpu};
        v.pci = PciAddress::parse(v.id.substr(4));
        v.gpu = GpuInfo{.cuda_ordinal = 1 - k, .nvml_index = k};  // CUDA FASTEST_FIRST may differ from PCI order
        g.add_vertex(v);
    }
    EXPECT_EQ(assign_gpu_ids(g), "cuda");
    EXPECT_EQ(g.find("gpu0")->pci->to_string(), "0000:01:00.0");
}

TEST(NvLinkVersion, FromGpuModel) {
    EXPECT_EQ(nvlink_version_for_model("Tesla P100-SXM2-16GB"), "1.0");
    EXPECT_EQ(nvlink_version_for_model("Tesla V100-SXM2-32GB"), "2.0");
    EXPECT_EQ(nvlink_version_for_model("NVIDIA H200"), "4.0");
    EXPECT_EQ(nvlink_version_for_model("Tesla M2075"), "");
}
