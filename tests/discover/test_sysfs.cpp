// 32intel64-2p8co2t+8ve.tar.bz2: a saved sysfs tree (dual Xeon, 8 NEC Vector
// Engines behind two PLX 10b5:9797 switches, an X722 NIC). Link values read
// from the tree: every switch link 8 GT/s x16 (Gen3 x16); the NIC functions
// 60:00.0/1 at 2.5 GT/s x1 with a max of 8 GT/s x1; 5e:00.0 at 8 GT/s x8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/error.hpp"
#include "core/link_rates.hpp"
#include "core/paths.hpp"
#include "discover/discover.hpp"
#include "discover/sysfs_source.hpp"
#include "discover/test_support.hpp"

using namespace hwcomm;

class SysfsTree : public ::testing::Test {
protected:
    // Extracted once per suite; the TempDir removes the tree at the end.
    static void SetUpTestSuite() {
        dir_ = std::make_unique<test::TempDir>();
        root_ = test::extract_sysfs_fixture(*dir_);
    }
    static void TearDownTestSuite() { dir_.reset(); }
    static inline std::unique_ptr<test::TempDir> dir_;
    static inline std::string root_;
};

TEST_F(SysfsTree, ReadsCurrentAndMaxLinkState) {
    auto link = read_sysfs_pcie_link(root_, *PciAddress::parse("0000:1b:00.0"));
    ASSERT_TRUE(link);
    EXPECT_EQ(link->generation, 3);
    EXPECT_EQ(link->width, 16);
    auto nic = read_sysfs_pcie_link(root_, *PciAddress::parse("0000:60:00.0"));
    ASSERT_TRUE(nic);
    EXPECT_EQ(nic->generation, 1);
    EXPECT_EQ(nic->width, 1);
    EXPECT_EQ(nic->max_generation, 3);
    EXPECT_EQ(nic->max_width, 1);
    EXPECT_FALSE(read_sysfs_pcie_link(root_, *PciAddress::parse("0000:99:00.0")));
}

TEST_F(SysfsTree, GraphHasGenerationsWidthsAndTheoreticalRates) {
    ASSERT_EQ(std::getenv("HWLOC_FSROOT"), nullptr);
    const Graph g = discover_machine({.fsroot = root_});
    EXPECT_EQ(std::getenv("HWLOC_FSROOT"), nullptr);  // restored after the load
    EXPECT_EQ(g.of_kind(VertexKind::Package).size(), 2u);
    EXPECT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    // The CPU model comes from the tree's /proc/cpuinfo, not from this
    // machine's CPUID (checked here: every test of this suite extracts the tree).
    for (const Vertex* p : g.of_kind(VertexKind::Package))
        EXPECT_EQ(p->attrs.at("cpu_model"), "Intel(R) Xeon(R) Silver 4108 CPU @ 1.80GHz") << p->id;
    EXPECT_EQ(g.of_kind(VertexKind::HostBridge).size(), 3u);
    EXPECT_TRUE(g.of_kind(VertexKind::Gpu).empty());
    EXPECT_NE(std::find(g.notes.begin(), g.notes.end(), "no GPU found: CPU-only graph"), g.notes.end());
    EXPECT_EQ(g.edge_between("package0", "package1", EdgeKind::Smp)->smp_distance, 21);

    const Edge* ve = test::pcie_edge_to(g, "pci:0000:1b:00.0");  // Vector Engine below switch port 19:08.0
    ASSERT_NE(ve, nullptr);
    EXPECT_EQ(ve->a, "pci:0000:19:08.0");
    ASSERT_TRUE(ve->pcie);
    EXPECT_EQ(ve->pcie->generation, 3);
    EXPECT_EQ(ve->pcie->width, 16);
    EXPECT_NEAR(ve->gbps_per_direction, 15.754, 1e-3);  // 8 GT/s * 128/130 / 8 * 16
    EXPECT_NEAR(ve->max_gbps_per_direction, 15.754, 1e-3);

    const Edge* nic = test::pcie_edge_to(g, "pci:0000:60:00.0");
    ASSERT_NE(nic, nullptr);
    EXPECT_EQ(nic->pcie->generation, 1);
    EXPECT_DOUBLE_EQ(nic->gbps_per_direction, 0.25);
    EXPECT_NEAR(nic->max_gbps_per_direction, 0.985, 1e-3);

    const Edge* uplink = test::pcie_edge_to(g, "pci:0000:5e:00.0");
    ASSERT_NE(uplink, nullptr);
    EXPECT_EQ(uplink->pcie->width, 8);
    EXPECT_NEAR(uplink->gbps_per_direction, pcie_link_gbps(3, 8), 1e-9);

    // Internal links (host bridge -> root port, switch upstream -> downstream) state no rate.
    const Edge* root = test::pcie_edge_to(g, "pci:0000:17:00.0");
    ASSERT_NE(root, nullptr);
    EXPECT_FALSE(root->pcie);
    EXPECT_EQ(root->gbps_per_direction, 0.0);
    EXPECT_EQ(g.find("pci:0000:19:08.0")->attrs.at("pcie_port"), "downstream");
}

TEST_F(SysfsTree, SwitchAndHostBridgeClasses) {
    const Graph g = discover_machine({.fsroot = root_});
    // Two Vector Engines below one PLX switch: its ports count as one bridge.
    EXPECT_EQ(classify_path(g, "pci:0000:1b:00.0", "pci:0000:1c:00.0").label(), "PIX");
    // Below different host bridges of NUMA node 0.
    EXPECT_EQ(classify_path(g, "pci:0000:1b:00.0", "pci:0000:3d:00.0").label(), "NODE");
    // The NIC's two functions below one upstream port.
    EXPECT_EQ(classify_path(g, "net:enp96s0f0", "net:enp96s0f1").label(), "PIX");
    const auto path = find_path(g, "pci:0000:1b:00.0", "pci:0000:1c:00.0");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices, (std::vector<std::string>{"pci:0000:1b:00.0", "pci:0000:19:08.0", "pci:0000:18:00.0",
                                                        "pci:0000:19:0c.0", "pci:0000:1c:00.0"}));
    EXPECT_NEAR(path->bottleneck_gbps, 15.754, 1e-3);
}

TEST(SysfsTreeBad, DirectoryWithoutCpusIsRefused) {
    test::TempDir dir;
    std::filesystem::create_directories(dir.path() + "/sys/class");
    try {
        discover_machine({.fsroot = dir.path()});
        FAIL() << "an empty tree was accepted";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), dir.path() + " is not a saved Linux sysfs tree (no sys/devices/system/cpu inside)");
    }
}
