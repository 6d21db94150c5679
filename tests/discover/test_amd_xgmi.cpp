// 8 AMD Instinct GPUs (tests/fixtures/hwloc/amd-xgmi.xml): RSMI OS devices on
// PCI class 1200 functions, every pair joined by XGMI (hwloc's XGMIBandwidth,
// 100000 MB/s per pair as hwloc's RSMI backend writes it).
#include <gtest/gtest.h>

#include "core/paths.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"

using namespace hwcomm;

TEST(AmdXgmi, RsmiGpusAreGpuVerticesWithXgmiEdges) {
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/amd-xgmi.xml")});
    const auto gpus = g.of_kind(VertexKind::Gpu);
    ASSERT_EQ(gpus.size(), 8u);
    for (const Vertex* v : gpus) {
        EXPECT_EQ(v->attrs.at("gpu_vendor"), "AMD");
        EXPECT_EQ(v->gpu->model, "AMD Instinct MI300X");
        EXPECT_EQ(v->gpu->memory_bytes, 201310208ull * 1024);
        EXPECT_EQ(v->gpu->cuda_ordinal, -1);  // never given a CUDA ordinal
    }
    EXPECT_EQ(test::count_edges(g, EdgeKind::Xgmi), 28);
    const Edge* e = g.edge_between("gpu0", "gpu7", EdgeKind::Xgmi);
    ASSERT_NE(e, nullptr);
    EXPECT_DOUBLE_EQ(e->gbps_per_direction, 100.0);
    EXPECT_EQ(classify_path(g, "gpu0", "gpu7").label(), "XGMI");
    const auto path = find_path(g, "gpu2", "gpu5");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices.size(), 2u);
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 100.0);
    for (const auto& note : g.notes) EXPECT_EQ(note.find("no GPU found"), std::string::npos) << note;
}
