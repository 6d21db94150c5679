// IBM AC922 style (tests/fixtures/hwloc/ac922-gpumem.xml): 2 POWER9, 4
// V100-SXM2 whose memory is also a NUMA node each (hwloc subtype GPUMemory,
// info PCIBusID), exported without distances, so without any NVLink data.
#include <gtest/gtest.h>

#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "report/topo_matrix.hpp"

using namespace hwcomm;

TEST(Ac922, GpuMemoryNodesAreGpuMemoryNotCpuNodes) {
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/ac922-gpumem.xml")});
    ASSERT_EQ(g.of_kind(VertexKind::NumaNode).size(), 6u);
    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 4u);
    const Vertex* mem = g.find("numa2");
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->name, "GPU memory of 0004:03:00.0");
    EXPECT_EQ(mem->attrs.at("memory_kind"), "gpu");
    EXPECT_TRUE(mem->numa->pus.empty());
    EXPECT_EQ(mem->numa->memory_bytes, 16ull << 30);
    EXPECT_TRUE(g.edge_between("package0", "numa2", EdgeKind::Membership));
    EXPECT_EQ(g.find("numa0")->name, "NUMA node 0");  // the DRAM node keeps its CPUs
    EXPECT_FALSE(g.find("numa0")->numa->pus.empty());
    EXPECT_EQ(g.find("gpu0")->attrs.at("gpu_numa_id"), "2");
    const TopoMatrix m = build_topo_matrix(g);
    EXPECT_EQ(m.gpu_numa_id, (std::vector<std::string>{"2", "3", "4", "5"}));
    EXPECT_EQ(m.numa_affinity, (std::vector<std::string>{"0", "0", "1", "1"}));  // the DRAM nodes only
    EXPECT_EQ(m.cells[0][1], "PIX");  // PCIe only: one switch
    EXPECT_EQ(m.cells[0][2], "SYS");
}

TEST(Ac922, MissingNvLinkDataIsSaid) {
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/ac922-gpumem.xml")});
    bool said = false;
    for (const auto& n : g.notes)
        said = said || n.find("NVLink data is absent although gpu0 (Tesla V100-SXM2-16GB) is an SXM GPU") != std::string::npos;
    EXPECT_TRUE(said) << testing::PrintToString(g.notes);
    EXPECT_EQ(g.find("package0")->name, "Package 0 (POWER9, altivec supported)");
}
