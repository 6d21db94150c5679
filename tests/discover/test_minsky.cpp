// IBM S822LC "Minsky" (power8gpudistances.xml): 2 POWER8 packages, 2 NUMA nodes,
// 4 P100 GPUs, NVLink 1.0 x2 (2 x 20 = 40 GB/s per direction) between GPU0-GPU1,
// GPU2-GPU3 and from each GPU to its own CPU, from hwloc's NVLinkBandwidth matrix.
#include <gtest/gtest.h>

#include "core/paths.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_matrix.hpp"

using namespace hwcomm;

namespace {

Graph minsky() { return discover_machine({.input_xml = test::minsky_xml()}); }

void expect_nvlink(const Graph& g, const std::string& a, const std::string& b) {
    const Edge* e = g.edge_between(a, b, EdgeKind::NvLink);
    ASSERT_NE(e, nullptr) << a << " -- " << b;
    EXPECT_DOUBLE_EQ(e->gbps_per_direction, 40.0);
    ASSERT_TRUE(e->nvlink);
    EXPECT_EQ(e->nvlink->version, "1.0");
    EXPECT_EQ(e->nvlink->links, 2);
    EXPECT_DOUBLE_EQ(e->nvlink->per_link_gbps, 20.0);
}

}  // namespace

TEST(Minsky, HasTwoPackagesTwoNumaNodesAndFourP100) {
    const Graph g = minsky();
    EXPECT_EQ(g.of_kind(VertexKind::Package).size(), 2u);
    ASSERT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    EXPECT_EQ(g.find("numa0")->numa->memory_bytes, 68556816384u);
    EXPECT_EQ(g.find("numa1")->numa->memory_bytes, 68450713600u);
    ASSERT_TRUE(g.edge_between("package0", "numa0", EdgeKind::Membership));
    ASSERT_TRUE(g.edge_between("package1", "numa1", EdgeKind::Membership));
    const auto gpus = g.of_kind(VertexKind::Gpu);
    ASSERT_EQ(gpus.size(), 4u);
    const char* bus[] = {"0002:01:00.0", "0003:01:00.0", "000a:01:00.0", "000b:01:00.0"};
    for (int k = 0; k < 4; ++k) {
        const Vertex* v = g.find("gpu" + std::to_string(k));
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(v->pci->to_string(), bus[k]);
        EXPECT_EQ(v->gpu->model, "Tesla P100-SXM2-16GB");
        EXPECT_EQ(v->gpu->cuda_ordinal, k);
        EXPECT_EQ(v->gpu->nvml_index, k);
        EXPECT_EQ(v->gpu->sm_count, 56);
    }
    EXPECT_EQ(g.find("gpu0")->gpu->uuid, "GPU-77bf6b9a-6906-5a93-d28b-b77d2c23d1d2");
}

TEST(Minsky, NvLinkBandwidthMatrixBecomesSixNvLinkEdges) {
    const Graph g = minsky();
    EXPECT_EQ(test::count_edges(g, EdgeKind::NvLink), 6);  // no diagonal, no GPU0-GPU2
    expect_nvlink(g, "gpu0", "gpu1");
    expect_nvlink(g, "gpu2", "gpu3");
    expect_nvlink(g, "gpu0", "package0");
    expect_nvlink(g, "gpu1", "package0");
    expect_nvlink(g, "gpu2", "package1");
    expect_nvlink(g, "gpu3", "package1");
    EXPECT_EQ(g.edge_between("gpu0", "gpu2", EdgeKind::NvLink), nullptr);
    EXPECT_EQ(g.edge_between("gpu1", "package1", EdgeKind::NvLink), nullptr);
}

TEST(Minsky, SmpEdgeCarriesTheNumaDistance) {
    const Graph g = minsky();
    const Edge* smp = g.edge_between("package0", "package1", EdgeKind::Smp);
    ASSERT_NE(smp, nullptr);
    EXPECT_EQ(smp->smp_distance, 40);
    EXPECT_EQ(test::count_edges(g, EdgeKind::Smp), 1);
}

TEST(Minsky, EachGpuSitsBelowItsOwnHostBridgeWithAGen3x16RateFromHwloc) {
    const Graph g = minsky();
    EXPECT_EQ(g.of_kind(VertexKind::HostBridge).size(), 4u);
    EXPECT_EQ(host_bridge_of(g, "gpu0"), "pci0002:00");
    EXPECT_EQ(host_bridge_of(g, "gpu2"), "pci000a:00");
    const Edge* link = test::pcie_edge_to(g, "gpu0");
    ASSERT_NE(link, nullptr);
    EXPECT_NEAR(link->gbps_per_direction, 15.7538, 1e-3);  // hwloc's linkspeed: Gen3 x16
    EXPECT_EQ(numa_nodes_of(g, "gpu3"), std::vector<std::string>{"numa1"});
}

TEST(Minsky, MatrixClassesMatchNvidiaSmi) {
    // GPU0/GPU1 hang off different host bridges of package 0 (PCIe alone would
    // be NODE) but share an NVLink x2 bond: NV2. GPU0/GPU2 have no NVLink
    // between them and sit on different sockets: SYS, data crosses the X-Bus.
    const Graph g = minsky();
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.labels, (std::vector<std::string>{"GPU0", "GPU1", "GPU2", "GPU3"}));
    const std::vector<std::vector<std::string>> expected{
        {"X", "NV2", "SYS", "SYS"},
        {"NV2", "X", "SYS", "SYS"},
        {"SYS", "SYS", "X", "NV2"},
        {"SYS", "SYS", "NV2", "X"},
    };
    EXPECT_EQ(m.cells, expected);
    EXPECT_EQ(m.cpu_affinity[0], "0-1,8-9,16-17,24-25");
    EXPECT_EQ(m.cpu_affinity[2], "80-81,88-89,96-97,104-105");
    EXPECT_EQ(m.numa_affinity, (std::vector<std::string>{"0", "0", "1", "1"}));
    EXPECT_EQ(m.gpu_numa_id[0], "N/A");
}

TEST(Minsky, DataBetweenSocketsRidesNvLinkToEachCpu) {
    const Graph g = minsky();
    const auto across = find_path(g, "gpu0", "gpu2");
    ASSERT_TRUE(across);
    EXPECT_EQ(across->vertices, (std::vector<std::string>{"gpu0", "package0", "package1", "gpu2"}));
    EXPECT_DOUBLE_EQ(across->bottleneck_gbps, 40.0);
    const auto peer = find_path(g, "gpu2", "gpu3");
    ASSERT_TRUE(peer);
    EXPECT_EQ(peer->vertices.size(), 2u);
    const auto to_memory = find_path(g, "gpu1", "numa1");
    ASSERT_TRUE(to_memory);
    EXPECT_EQ(to_memory->vertices, (std::vector<std::string>{"gpu1", "package0", "package1", "numa1"}));
}
