// NVSwitch machines written from public facts (tests/fixtures/hwloc/make_fixtures.py):
// a DGX-2 style (16 V100 on two baseboards, 12 NVSwitches, one NVLink 2.0
// link from each GPU to each switch of its board; nvidia-smi topo -m there:
// NV6 everywhere) and a DGX H100 style (8 H100, 4 NVSwitches, 18 NVLink 4.0
// links per GPU split 5/4/4/5; nvidia-smi: NV18 everywhere).
#include <gtest/gtest.h>

#include "core/paths.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_matrix.hpp"

using namespace hwcomm;

namespace {

const Graph& dgx2() {
    static const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx2-nvswitch.xml")});
    return g;
}

const Graph& dgxh100() {
    static const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgxh100-nvswitch.xml")});
    return g;
}

std::string cls(const Graph& g, const std::string& a, const std::string& b) { return classify_path(g, a, b).label(); }

bool has_note(const Graph& g, const std::string& part) {
    for (const auto& n : g.notes)
        if (n.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(Dgx2, SixteenGpusAndTwelveNamedSwitches) {
    const Graph& g = dgx2();
    EXPECT_EQ(g.of_kind(VertexKind::Gpu).size(), 16u);
    const auto switches = g.of_kind(VertexKind::NvSwitch);
    ASSERT_EQ(switches.size(), 12u);
    for (int k = 0; k < 12; ++k) {
        const Vertex* s = g.find("nvswitch" + std::to_string(k));
        ASSERT_NE(s, nullptr) << k;
        EXPECT_EQ(s->kind, VertexKind::NvSwitch);
    }
    // PCI order: board 0's switches (package 0, buses < 0x80) come first.
    EXPECT_LT(g.find("nvswitch5")->pci->bus, 0x80u);
    EXPECT_GE(g.find("nvswitch6")->pci->bus, 0x80u);
}

TEST(Dgx2, EachGpuHasOneNvLink2LinkToEachSwitchOfItsBoard) {
    const Graph& g = dgx2();
    for (int k = 0; k < 16; ++k) {
        const std::string gpu = "gpu" + std::to_string(k);
        const int board = k / 8;
        for (int s = 0; s < 12; ++s) {
            const Edge* e = g.edge_between(gpu, "nvswitch" + std::to_string(s), EdgeKind::NvLink);
            if (s / 6 != board) {
                EXPECT_EQ(e, nullptr) << gpu << " nvswitch" << s;
                continue;
            }
            ASSERT_NE(e, nullptr) << gpu << " nvswitch" << s;
            EXPECT_EQ(e->nvlink->links, 1);
            EXPECT_EQ(e->nvlink->version, "2.0");
            EXPECT_DOUBLE_EQ(e->gbps_per_direction, 25.0);
        }
    }
}

TEST(Dgx2, EveryGpuPairIsNv6At150GBps) {
    const Graph& g = dgx2();
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.gpu_count, 16u);
    for (std::size_t r = 0; r < 16; ++r)
        for (std::size_t c = 0; c < 16; ++c) EXPECT_EQ(m.cells[r][c], r == c ? "X" : "NV6") << r << "," << c;
    for (const char* other : {"gpu1", "gpu7", "gpu8", "gpu15"}) {
        const auto path = find_path(g, "gpu0", other);
        ASSERT_TRUE(path) << other;
        EXPECT_EQ(path->nvlinks, 6) << other;
        EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 150.0) << other;
        EXPECT_FALSE(path->unknown_edge) << other;
    }
}

TEST(Dgx2, BoardsWithoutTrunksAreOneFabricWithANote) {
    const Graph& g = dgx2();
    EXPECT_TRUE(g.find("nvswitch-fabric"));
    EXPECT_TRUE(has_note(g, "NVSwitch groups nvswitch0..5; nvswitch6..11 are shown without the trunks")) << testing::PrintToString(g.notes);
}

TEST(Dgx2, GpuToSwitchHopIsNvLinkNotNode) {
    const Graph& g = dgx2();
    EXPECT_EQ(cls(g, "gpu0", "nvswitch0"), "NV1");
    EXPECT_EQ(cls(g, "nvswitch3", "gpu2"), "NV1");
}

TEST(Dgx2, SwitchThatLostItsVendorIdIsStillASwitch) {
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx2-nvswitch-novendor.xml")});
    EXPECT_EQ(g.of_kind(VertexKind::NvSwitch).size(), 12u);
    EXPECT_TRUE(has_note(g, "no NVIDIA NVSwitch PCI identity (vendor 0000)")) << testing::PrintToString(g.notes);
    EXPECT_EQ(build_topo_matrix(g).cells[8][15], "NV6");
}

TEST(DgxH100, EveryGpuPairIsNv18OverFourSwitches) {
    const Graph& g = dgxh100();
    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 8u);
    ASSERT_EQ(g.of_kind(VertexKind::NvSwitch).size(), 4u);
    const int split[] = {5, 4, 4, 5};
    for (int s = 0; s < 4; ++s) {
        const Edge* e = g.edge_between("gpu3", "nvswitch" + std::to_string(s), EdgeKind::NvLink);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e->nvlink->links, split[s]);
        EXPECT_DOUBLE_EQ(e->gbps_per_direction, split[s] * 26.5625);
    }
    const TopoMatrix m = build_topo_matrix(g);
    for (std::size_t r = 0; r < 8; ++r)
        for (std::size_t c = 0; c < 8; ++c) EXPECT_EQ(m.cells[r][c], r == c ? "X" : "NV18") << r << "," << c;
    const auto path = find_path(g, "gpu0", "gpu7");
    ASSERT_TRUE(path);
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 478.125);
    EXPECT_FALSE(g.find("nvswitch-fabric"));  // every GPU reaches every switch: no trunks needed
}

TEST(Dgx2, PathsReachNicsAndDisksWithNvidiaSmiClasses) {
    const Graph& g = dgx2();
    EXPECT_EQ(cls(g, "gpu0", "net:mlx5_0"), "PIX");   // one PCIe switch holds both
    EXPECT_EQ(cls(g, "gpu0", "net:mlx5_1"), "PXB");   // two levels of switches
    EXPECT_EQ(cls(g, "gpu0", "net:mlx5_2"), "NODE");  // another host bridge of the socket
    EXPECT_EQ(cls(g, "gpu0", "net:mlx5_4"), "SYS");   // the other socket
    const auto to_nic = find_path(g, "gpu0", "net:mlx5_0");
    ASSERT_TRUE(to_nic);
    EXPECT_EQ(to_nic->vertices.back(), "net:mlx5_0");
    EXPECT_NEAR(to_nic->bottleneck_gbps, 15.754, 1e-3);  // PCIe Gen3 x16 on both ends
    const auto to_disk = find_path(g, "numa1", "disk:nvme0n1");
    ASSERT_TRUE(to_disk);
    EXPECT_TRUE(to_disk->crosses_smp);
    // The drive reports Gen3 x4, its root port x2: both kept, the port named
    // as the smaller; the edge keeps the drive's report.
    EXPECT_NEAR(to_disk->bottleneck_gbps, 3.938, 1e-3);
    const Vertex* nvme = g.find(g.edges()[to_disk->edges[to_disk->edges.size() - 2]].b);
    EXPECT_EQ(nvme->attrs.at("link_gbps_at_port"), "1.969");
    EXPECT_EQ(nvme->attrs.at("link_gbps_at_device"), "3.938");
    EXPECT_EQ(nvme->attrs.at("link_limited_by"), "port");
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.labels.size(), 24u);  // 16 GPUs, 8 RDMA NICs
    EXPECT_EQ(m.labels[16], "NIC0");
    EXPECT_EQ(m.cells[0][16], "PIX");
    EXPECT_EQ(m.cells[16][0], "PIX");
    EXPECT_EQ(m.cells[15][23], "PIX");
}

TEST(Dgx2, ExportWithoutCudaFactsGetsOrdinalsInPciOrder) {
    const Graph& g = dgx2();
    for (int k = 0; k < 16; ++k) {
        const Vertex* v = g.find("gpu" + std::to_string(k));
        EXPECT_EQ(v->gpu->cuda_ordinal, k);
        EXPECT_EQ(v->attrs.at("cuda_ordinal_inferred"), "PCI bus id order");
    }
    EXPECT_TRUE(has_note(g, "CUDA ordinals inferred from PCI bus id order"));
    // The H100 export has CUDA OS devices: nothing is inferred there.
    EXPECT_FALSE(dgxh100().find("gpu0")->attrs.count("cuda_ordinal_inferred"));
}
