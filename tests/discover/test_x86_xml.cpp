// Dual-socket x86 machines with PCIe-only GPUs (hwloc XML exports).
#include <gtest/gtest.h>

#include "core/paths.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_matrix.hpp"

using namespace hwcomm;

namespace {
std::string cls(const Graph& g, const std::string& a, const std::string& b) { return classify_path(g, a, b).label(); }
}  // namespace

// 32em64t-2n8c2t-pci-wholeio.xml: 2 x Xeon E5-2650, NVIDIA GPUs at 03:00.0
// (socket 0), 83:00.0 and 84:00.0 (socket 1), an AMD GPU (not a CUDA GPU),
// SATA disk sda, I350 NICs eth0/eth1, a ConnectX-4 (ib0, mlx5_0) listed twice
// at 0000:04:00.0 in this export.
TEST(WholeIoXml, CountsPackagesNumaGpusAndIoDevices) {
    const Graph g = discover_machine({.input_xml = test::wholeio_xml()});
    EXPECT_EQ(g.of_kind(VertexKind::Package).size(), 2u);
    EXPECT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    EXPECT_EQ(g.of_kind(VertexKind::HostBridge).size(), 2u);
    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 3u);
    // No CUDA ordinal or NVML index for every GPU: ids follow PCI order.
    EXPECT_EQ(g.find("gpu0")->pci->to_string(), "0000:03:00.0");
    EXPECT_EQ(g.find("gpu1")->pci->to_string(), "0000:83:00.0");
    EXPECT_EQ(g.find("gpu2")->pci->to_string(), "0000:84:00.0");
    EXPECT_EQ(g.provenance.at("gpu_id_order"), "pci");
    EXPECT_EQ(g.find("pci:0000:84:00.1")->kind, VertexKind::PciDevice);  // AMD Radeon
    EXPECT_TRUE(g.edge_between("pci:0000:00:1f.2", "disk:sda", EdgeKind::Attach));
    EXPECT_TRUE(g.edge_between("pci:0000:81:00.0", "net:eth0", EdgeKind::Attach));
    EXPECT_TRUE(g.find("pci:0000:04:00.0#1"));  // the duplicated address keeps both functions
    EXPECT_EQ(g.find("net:mlx5_0")->attrs.at("rdma"), "true");
    const Edge* smp = g.edge_between("package0", "package1", EdgeKind::Smp);
    ASSERT_NE(smp, nullptr);
    EXPECT_EQ(smp->smp_distance, 20);
    EXPECT_EQ(test::count_edges(g, EdgeKind::NvLink), 0);
}

TEST(WholeIoXml, PathClassesFollowThePcieTree) {
    const Graph g = discover_machine({.input_xml = test::wholeio_xml()});
    EXPECT_EQ(cls(g, "gpu0", "gpu1"), "SYS");   // different sockets
    EXPECT_EQ(cls(g, "gpu1", "gpu2"), "PHB");   // root ports 80:02.0 and 80:03.0 of one host bridge
    EXPECT_EQ(cls(g, "gpu2", "net:mlx5_0"), "PIX");  // both below root port 80:03.0
    EXPECT_EQ(cls(g, "net:eth0", "net:eth1"), "PIX");  // two functions below root port 80:01.0
    EXPECT_EQ(cls(g, "gpu0", "disk:sda"), "PHB");
    EXPECT_EQ(cls(g, "gpu0", "numa0"), "PHB");
    EXPECT_EQ(cls(g, "gpu0", "numa1"), "SYS");
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.labels, (std::vector<std::string>{"GPU0", "GPU1", "GPU2", "NIC0"}));
    EXPECT_EQ(m.nic_names, std::vector<std::string>{"mlx5_0"});
    EXPECT_EQ(m.cells[3], (std::vector<std::string>{"SYS", "PHB", "PIX", "X"}));
    EXPECT_EQ(m.cpu_affinity[0], "0-7,16-23");
    EXPECT_EQ(m.cpu_affinity[1], "8-15,24-31");
}

// 24em64t-2n6c2t-pci.xml: 2 x Xeon (X58 I/O hubs), Tesla GPUs (10de:06d2) at
// 06:00.0 (socket 0), 14:00.0 and 11:00.0 (socket 1), ConnectX (mlx4_0) on socket 0.
TEST(X58Xml, CountsAndClasses) {
    const Graph g = discover_machine({.input_xml = test::x58_xml()});
    EXPECT_EQ(g.of_kind(VertexKind::Package).size(), 2u);
    EXPECT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 3u);
    EXPECT_EQ(g.find("gpu0")->pci->to_string(), "0000:06:00.0");
    EXPECT_EQ(g.find("gpu1")->pci->to_string(), "0000:11:00.0");
    EXPECT_EQ(g.find("gpu2")->pci->to_string(), "0000:14:00.0");
    EXPECT_EQ(g.of_kind(VertexKind::NetworkInterface).size(), 5u);  // eth0-2, ib0, mlx4_0
    ASSERT_TRUE(g.edge_between("package0", "package1", EdgeKind::Smp));
    EXPECT_NEAR(test::pcie_edge_to(g, "gpu1")->gbps_per_direction, 4.0, 1e-6);  // hwloc link speed
    EXPECT_EQ(cls(g, "gpu0", "gpu1"), "SYS");
    EXPECT_EQ(cls(g, "gpu1", "gpu2"), "PHB");  // root ports 10:07.0 and 10:03.0
    EXPECT_EQ(cls(g, "gpu0", "net:mlx4_0"), "PHB");
    EXPECT_EQ(cls(g, "gpu2", "net:mlx4_0"), "SYS");
    const auto path = find_path(g, "gpu0", "gpu2");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices, (std::vector<std::string>{"gpu0", "pci:0000:00:07.0", "pci0000:00", "numa0", "package0",
                                                        "package1", "numa1", "pci0000:10", "pci:0000:10:03.0", "gpu2"}));
    EXPECT_NEAR(path->bottleneck_gbps, 4.0, 1e-6);
}
