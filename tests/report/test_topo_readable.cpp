// The 16-GPU DGX-2 style fixture as a person reads it: GPU lines fit 120
// columns, NVLinks grouped per GPU, empty PCI functions hidden unless --all,
// vendor names decoded, DOT clustered per package.
#include <gtest/gtest.h>

#include <sstream>

#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_render.hpp"

using namespace hwcomm;

namespace {

const Graph& dgx2() {
    static const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx2-nvswitch.xml")});
    return g;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(TopoReadable, SixteenGpuTreeFitsAHundredTwentyColumns) {
    const std::string tree = render_topology(dgx2(), {});
    int gpu_lines = 0;
    for (const auto& line : lines_of(tree)) {
        if (line.find(" gpu") == std::string::npos) continue;
        ++gpu_lines;
        EXPECT_LE(line.size(), 120u) << line;
    }
    EXPECT_GE(gpu_lines, 32);  // 16 in the PCIe tree, 16 NVLink lines
}

TEST(TopoReadable, NvLinksGroupedPerGpu) {
    const std::string tree = render_topology(dgx2(), {});
    EXPECT_TRUE(contains(tree, "\n  gpu0: NVLink 2.0 x6 -> nvswitch0..5, 150.00 GB/s per direction\n")) << tree;
    EXPECT_TRUE(contains(tree, "\n  gpu15: NVLink 2.0 x6 -> nvswitch6..11, 150.00 GB/s per direction\n")) << tree;
    EXPECT_TRUE(contains(tree, "\n  nvswitch0..11 -- nvswitch-fabric  trunks no source shows (assumed one fabric)\n")) << tree;
    EXPECT_FALSE(contains(tree, "gpu0 -- nvswitch0")) << tree;
}

TEST(TopoReadable, EmptyFunctionsHiddenUnlessAll) {
    const std::string tree = render_topology(dgx2(), {});
    const std::string all = render_topology(dgx2(), {.all = true});
    // The SATA controller, the driverless Ethernet port and the system peripheral carry nothing.
    EXPECT_FALSE(contains(tree, "8086:1563")) << tree;
    EXPECT_TRUE(contains(tree, "PCI functions and bridges that carry nothing hidden; --all shows them")) << tree;
    EXPECT_TRUE(contains(all, "PCI device 8086:1563 class 0200")) << all;
    EXPECT_TRUE(contains(all, "Intel C620 Series Chipset Family SATA Controller [AHCI mode]")) << all;
    EXPECT_FALSE(contains(all, "--all shows them")) << all;
    EXPECT_LT(lines_of(tree).size(), lines_of(all).size());
}

TEST(TopoReadable, DecodedNamesDisksAndTrimmedCpu) {
    const std::string tree = render_topology(dgx2(), {});
    EXPECT_TRUE(contains(tree, "Mellanox MT27800 Family [ConnectX-5]")) << tree;
    EXPECT_TRUE(contains(tree, "Package 0 (Intel Xeon Platinum 8168 @ 2.70GHz)")) << tree;
    EXPECT_TRUE(contains(tree, "disk:nvme0n1")) << tree;
    EXPECT_TRUE(contains(tree, "[link: device says 3.938, port 1.969 GB/s; port limits]")) << tree;
    EXPECT_TRUE(contains(tree, "\n  disk:sda  sda\n")) << tree;  // below no PCI device
    EXPECT_TRUE(contains(tree, "\n  disk:vda  vda\n")) << tree;
    EXPECT_TRUE(contains(tree, "cuda 3*")) << tree;  // inferred ordinal, marked
}

TEST(TopoReadable, DotClustersPerPackage) {
    const std::string dot = render_topology(dgx2(), {.format = TopoFormat::Dot});
    EXPECT_TRUE(contains(dot, "subgraph \"cluster_package0\"")) << dot;
    EXPECT_TRUE(contains(dot, "subgraph \"cluster_package1\""));
    const auto c1 = dot.find("cluster_package1");
    const auto gpu15 = dot.find("\"gpu15\" [shape");
    EXPECT_GT(gpu15, c1);
}
