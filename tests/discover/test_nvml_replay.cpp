// NVML replay of the 2x H200 machine (tests/fixtures/nvml/h200x2.json): two
// H200 on 00:06.0 and 00:07.0, each with 18 active NVLink 4.0 links (NVML
// version enum 6) to hidden NVSwitches (remote FFFFFFFF:FF:FF.0, type SWITCH),
// CPU affinity 0xffffffff, PCIe Gen5 x16. nvidia-smi topo -m there: NV18.
#include <gtest/gtest.h>

#include <fstream>

#include "core/paths.hpp"
#include "discover/gpu_ids.hpp"
#include "discover/nvml_api.hpp"
#include "discover/nvml_source.hpp"
#include "discover/nvswitches.hpp"
#include "discover/test_support.hpp"
#include "report/topo_matrix.hpp"

using namespace hwcomm;

namespace {

// The CPU side of those machines (one package, one NUMA node, CPUs
// 0..cpus-1); the GPUs come from NVML alone, as when hwloc has no PCI discovery.
Graph h200_cpu_side(unsigned cpus = 32) {
    Graph g;
    g.add_vertex({.id = "package0", .kind = VertexKind::Package, .os_index = 0});
    Vertex numa{.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0};
    NumaInfo info;
    info.cpuset = "0-" + std::to_string(cpus - 1);
    for (unsigned i = 0; i < cpus; ++i) info.pus.push_back(i);
    numa.numa = info;
    g.add_vertex(numa);
    g.add_edge({.a = "package0", .b = "numa0", .kind = EdgeKind::Membership});
    return g;
}

Graph h200() {
    Graph g = h200_cpu_side();
    merge_nvml(g, *nvml::open_nvml_replay(test::h200_recording()));
    assign_gpu_ids(g);
    return g;
}

}  // namespace

TEST(NvmlReplay, ReadsTheRecording) {
    auto source = nvml::open_nvml_replay(test::h200_recording());
    ASSERT_EQ(source->device_count(), 2u);
    const auto d0 = source->device(0);
    EXPECT_EQ(d0.name, "NVIDIA H200");
    EXPECT_EQ(d0.pci_bus_id, "00000000:00:06.0");
    EXPECT_EQ(d0.nvlinks.size(), 18u);
    EXPECT_EQ(d0.nvlinks[17].version, 6);
    EXPECT_EQ(d0.nvlinks[0].remote_device_type, nvml::kRemoteSwitch);
    EXPECT_EQ(source->p2p_status(0, 1, nvml::P2pCapability::NvLink), 0);
    EXPECT_EQ(source->common_ancestor(0, 1), 30);
    EXPECT_EQ(source->versions().driver, "580.159.04");
    EXPECT_EQ(source->origin(), "replay:" + test::h200_recording());
}

TEST(NvmlReplay, RecordingRoundTripsThroughRecordNvml) {
    auto source = nvml::open_nvml_replay(test::h200_recording());
    const auto recorded = nvml::record_nvml(*source);
    auto again = nvml::nvml_replay_from_json(recorded, "memory");
    const auto re_recorded = nvml::record_nvml(*again);
    EXPECT_EQ(recorded, re_recorded);
    std::ifstream in(test::h200_recording());
    auto fixture = nlohmann::json::parse(in);
    EXPECT_EQ(recorded["devices"], fixture["devices"]);  // the fixture is in record_nvml's format
    EXPECT_EQ(recorded["p2p"], fixture["p2p"]);
}

TEST(NvmlReplay, TwoGpusWithEighteenNvLink4LinksToTheFabric) {
    const Graph g = h200();
    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 2u);
    const Vertex* fabric = g.find("nvswitch-fabric");
    ASSERT_NE(fabric, nullptr);
    EXPECT_EQ(fabric->kind, VertexKind::NvSwitchFabric);
    for (const char* id : {"gpu0", "gpu1"}) {
        const Edge* e = g.edge_between(id, "nvswitch-fabric", EdgeKind::NvLink);
        ASSERT_NE(e, nullptr) << id;
        ASSERT_TRUE(e->nvlink);
        EXPECT_EQ(e->nvlink->links, 18);
        EXPECT_EQ(e->nvlink->version, "4.0");
        EXPECT_EQ(e->nvlink->nvml_version, 6);
        EXPECT_DOUBLE_EQ(e->nvlink->per_link_gbps, 26.5625);
        EXPECT_DOUBLE_EQ(e->gbps_per_direction, 478.125);
    }
    EXPECT_EQ(test::count_edges(g, EdgeKind::NvLink), 2);
    EXPECT_EQ(g.edge_between("gpu0", "gpu1", EdgeKind::NvLink), nullptr);
}

TEST(NvmlReplay, GpuFactsAffinityAndPcie) {
    const Graph g = h200();
    const Vertex& gpu0 = *g.find("gpu0");
    EXPECT_EQ(gpu0.pci->to_string(), "0000:00:06.0");
    EXPECT_EQ(g.find("gpu1")->pci->to_string(), "0000:00:07.0");
    EXPECT_EQ(gpu0.gpu->uuid, "GPU-484c1c47-1c4d-73d8-71ef-6d6d0bc951c2");
    EXPECT_EQ(gpu0.gpu->nvml_index, 0);
    EXPECT_EQ(gpu0.gpu->memory_bytes / 1048576ull, 143771ull);  // nvidia-smi: 143771MiB
    EXPECT_EQ(gpu0.gpu->cpu_affinity, "0-31");
    EXPECT_EQ(gpu0.attrs.count("gpu_numa_id"), 0u);  // NVML: not supported -> N/A
    EXPECT_EQ(gpu0.attrs.at("p2p_to_nvml1"), "read=OK write=OK nvlink=OK atomics=OK prop=NS");
    EXPECT_EQ(gpu0.attrs.at("nvml_common_ancestor_nvml1"), "30");
    EXPECT_EQ(host_bridge_of(g, "gpu0"), "pci0000:00");
    EXPECT_EQ(host_bridge_of(g, "gpu1"), "pci0000:00");
    const Edge* link = test::pcie_edge_to(g, "gpu0");
    ASSERT_NE(link, nullptr);
    EXPECT_EQ(link->pcie->generation, 5);
    EXPECT_EQ(link->pcie->width, 16);
    EXPECT_NEAR(link->gbps_per_direction, 63.015, 1e-3);
    EXPECT_EQ(g.provenance.at("driver_version"), "580.159.04");
    EXPECT_EQ(g.provenance.at("gpu_id_order"), "nvml");
}

TEST(NvmlReplay, MatrixSaysNv18AndPathsGoThroughTheFabric) {
    Graph g = h200();
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.labels, (std::vector<std::string>{"GPU0", "GPU1"}));
    EXPECT_EQ(m.cells, (std::vector<std::vector<std::string>>{{"X", "NV18"}, {"NV18", "X"}}));
    EXPECT_EQ(m.cpu_affinity, (std::vector<std::string>{"0-31", "0-31"}));
    EXPECT_EQ(m.numa_affinity, (std::vector<std::string>{"0", "0"}));
    EXPECT_EQ(m.gpu_numa_id, (std::vector<std::string>{"N/A", "N/A"}));
    const auto path = find_path(g, "gpu0", "gpu1");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->vertices, (std::vector<std::string>{"gpu0", "nvswitch-fabric", "gpu1"}));
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 478.125);
    const auto to_host = find_path(g, "gpu1", "numa0");
    ASSERT_TRUE(to_host);
    EXPECT_NEAR(to_host->bottleneck_gbps, 63.015, 1e-3);  // PCIe Gen5 x16
    // Without NVLink both GPUs share host bridge pci0000:00: PHB, as NVML's
    // common ancestor (30 = HOSTBRIDGE) says.
    std::erase_if(g.mutable_edges(), [](const Edge& e) { return e.kind == EdgeKind::NvLink; });
    EXPECT_EQ(classify_path(g, "gpu0", "gpu1").label(), "PHB");
}

TEST(NvmlReplay, MatchesGpusHwlocAlreadyFoundByNumericPciId) {
    Graph g = h200_cpu_side();
    g.add_vertex({.id = "pci0000:00", .kind = VertexKind::HostBridge, .attrs = {{"buses", "0000:[00-00]"}}});
    g.add_edge({.a = "numa0", .b = "pci0000:00", .kind = EdgeKind::Membership});
    Vertex gpu{.id = "pci:0000:00:07.0", .kind = VertexKind::PciDevice, .pci = PciAddress::parse("0000:00:07.0")};
    g.add_vertex(gpu);
    g.add_edge({.a = "pci0000:00", .b = "pci:0000:00:07.0", .kind = EdgeKind::Pcie});
    merge_nvml(g, *nvml::open_nvml_replay(test::h200_recording()));
    assign_gpu_ids(g);
    EXPECT_EQ(g.of_kind(VertexKind::Gpu).size(), 2u);
    EXPECT_EQ(g.find("pci:0000:00:07.0"), nullptr);  // renamed, not duplicated
    EXPECT_EQ(g.find("gpu1")->pci->to_string(), "0000:00:07.0");
    EXPECT_EQ(host_bridge_of(g, "gpu0"), "pci0000:00");  // the missing one joined the existing bridge
    EXPECT_EQ(g.of_kind(VertexKind::HostBridge).size(), 1u);
}

TEST(NvmlReplay, FabricReplacesHwlocGpuToGpuBandwidth) {
    // hwloc's NVML plugin can report GPU-GPU bandwidth through the switches;
    // with NVML's fabric edges that would count the same links twice.
    Graph g = h200_cpu_side();
    for (const char* bus : {"0000:00:06.0", "0000:00:07.0"}) {
        Vertex v{.id = std::string("pci:") + bus, .kind = VertexKind::Gpu, .pci = PciAddress::parse(bus)};
        v.gpu = GpuInfo{.model = "NVIDIA H200"};
        g.add_vertex(v);
    }
    Edge hw{.a = "pci:0000:00:06.0", .b = "pci:0000:00:07.0", .kind = EdgeKind::NvLink, .gbps_per_direction = 478.125,
            .source = "hwloc:NVLinkBandwidth"};
    g.add_edge(hw);
    merge_nvml(g, *nvml::open_nvml_replay(test::h200_recording()));
    EXPECT_EQ(test::count_edges(g, EdgeKind::NvLink), 2);
    EXPECT_EQ(g.edge_between("pci:0000:00:06.0", "pci:0000:00:07.0", EdgeKind::NvLink), nullptr);
}

// The 4-GPU machine (tests/fixtures/nvml/h200x4.json, recorded there with
// `hwcomm topo --record-nvml`): four H200, each with 18 NVLink 4.0 links into
// hidden NVSwitches, 64 CPUs. nvidia-smi topo -m there: NV18 in every cell.
TEST(NvmlReplay, FourGpuMachineIsNv18EverywhereThroughOneFabric) {
    Graph g = h200_cpu_side(64);
    merge_nvml(g, *nvml::open_nvml_replay(test::fixture("nvml/h200x4.json")));
    assign_gpu_ids(g);

    ASSERT_EQ(g.of_kind(VertexKind::Gpu).size(), 4u);
    ASSERT_EQ(g.of_kind(VertexKind::NvSwitchFabric).size(), 1u);
    EXPECT_EQ(test::count_edges(g, EdgeKind::NvLink), 4);
    for (const char* id : {"gpu0", "gpu1", "gpu2", "gpu3"}) {
        const Edge* e = g.edge_between(id, "nvswitch-fabric", EdgeKind::NvLink);
        ASSERT_NE(e, nullptr) << id;
        EXPECT_EQ(e->nvlink->links, 18);
        EXPECT_EQ(e->nvlink->version, "4.0");
    }
    const TopoMatrix m = build_topo_matrix(g);
    ASSERT_EQ(m.labels.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(m.cells[i][j], i == j ? "X" : "NV18") << i << "," << j;
    EXPECT_EQ(m.cpu_affinity[3], "0-63");
    const auto path = find_path(g, "gpu1", "gpu3");
    ASSERT_TRUE(path);
    EXPECT_DOUBLE_EQ(path->bottleneck_gbps, 478.125);
}

// NVML names a switch hwloc shows as a plain PCI function (class and vendor
// lost): the remote device type makes it an NVSwitch and the links end there.
TEST(NvmlReplay, LinksToAVisibleSwitchEndOnItAsANamedNvSwitch) {
    Graph g = h200_cpu_side();
    g.add_vertex({.id = "pci0000:00", .kind = VertexKind::HostBridge});
    Vertex gpu{.id = "pci:0000:05:00.0", .kind = VertexKind::Gpu, .pci = PciAddress::parse("0000:05:00.0")};
    gpu.gpu = GpuInfo{};
    g.add_vertex(gpu);
    g.add_vertex({.id = "pci:0000:1c:00.0", .kind = VertexKind::PciDevice, .name = "PCI device 0000:1ac1",
                  .pci = PciAddress::parse("0000:1c:00.0")});
    g.add_edge({.a = "pci0000:00", .b = "pci:0000:05:00.0", .kind = EdgeKind::Pcie});
    g.add_edge({.a = "pci0000:00", .b = "pci:0000:1c:00.0", .kind = EdgeKind::Pcie});
    nlohmann::json links = nlohmann::json::array();
    for (unsigned l = 0; l < 3; ++l)
        links.push_back({{"link", l}, {"active", true}, {"version", 2}, {"remote_device_type", nvml::kRemoteSwitch},
                         {"remote_pci_bus_id", "00000000:1C:00.0"}});
    const nlohmann::json doc{{"format", nvml::kRecordingFormat}, {"format_version", nvml::kRecordingVersion},
                             {"devices", {{{"index", 0}, {"name", "Tesla V100-SXM3-32GB"},
                                           {"pci_bus_id", "00000000:05:00.0"}, {"nvlinks", links}}}}};
    merge_nvml(g, *nvml::nvml_replay_from_json(doc, "memory"));
    assign_gpu_ids(g);
    assign_nvswitch_ids(g);
    ASSERT_TRUE(g.find("nvswitch0"));
    EXPECT_EQ(g.find("nvswitch0")->kind, VertexKind::NvSwitch);
    EXPECT_FALSE(g.find("nvswitch-fabric"));
    const Edge* e = g.edge_between("gpu0", "nvswitch0", EdgeKind::NvLink);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->nvlink->links, 3);
    EXPECT_DOUBLE_EQ(e->gbps_per_direction, 75.0);
}
