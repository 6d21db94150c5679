// Identical-link classes (issue 21 item 1) on the fixture machines: which
// endpoint pairs cross equivalent paths, with assertions on class counts,
// sizes and memberships (no GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/error.hpp"
#include "fixture_graphs.hpp"

using namespace hwcomm;
using namespace hwcomm::test;

namespace {

ClassMap gpu_classes(const Graph& g) { return classify(g, gpu_pairs(g)); }
ClassMap host_classes(const Graph& g) { return classify(g, host_gpu_pairs(g)); }

}  // namespace

// 8 H100 through 4 NVSwitches (5/4/4/5 links): every ordered pair is NV18;
// host to GPU splits by socket locality and direction.
TEST(LinkClasses, DgxH100GpuPairsAreOneClassHostPairsSplitBySocket) {
    const Graph g = xml_graph("dgxh100-nvswitch.xml");
    const ClassMap gpus = gpu_classes(g);
    ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({56})) << dump(gpus);
    EXPECT_NE(gpus.classes[0].description.find("NV18 through 4 NVSwitches"), std::string::npos);
    EXPECT_NE(gpus.classes[0].description.find("478.125 GB/s"), std::string::npos);
    EXPECT_TRUE(gpus.classes[0].rates_known);
    const ClassMap hosts = host_classes(g);
    ASSERT_EQ(sizes(hosts), std::vector<std::size_t>({8, 8, 8, 8})) << dump(hosts);
    EXPECT_EQ(class_of(hosts, "numa0", "gpu0"), class_of(hosts, "numa1", "gpu4"));  // local, each socket
    EXPECT_EQ(class_of(hosts, "numa0", "gpu4"), class_of(hosts, "numa1", "gpu0"));  // remote
    EXPECT_NE(class_of(hosts, "numa0", "gpu0"), class_of(hosts, "numa0", "gpu4"));
    EXPECT_NE(class_of(hosts, "numa0", "gpu0"), class_of(hosts, "gpu0", "numa0"));  // direction
    // The host's way to a GPU is the GPU's own PCIe link, never an NVSwitch's management port.
    for (const LinkClass& c : hosts.classes) EXPECT_EQ(c.description.find("NVLink"), std::string::npos) << c.description;
}

// The DGX-1 hybrid cube mesh: NVLink neighbours (each quad, and GPU i with
// i+4) against the pairs with no NVLink (across the sockets, over PCIe and
// the SMP link); host to GPU by socket.
TEST(LinkClasses, Dgx1NvlinkNeighboursAgainstTheRestAndSocketLocality) {
    const Graph g = xml_graph("dgx1.xml");
    const ClassMap gpus = gpu_classes(g);
    ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({32, 24})) << dump(gpus);
    const std::string nvlink = class_of(gpus, "gpu0", "gpu1");
    for (auto [a, b] : {std::pair{"gpu0", "gpu3"}, {"gpu0", "gpu4"}, {"gpu7", "gpu3"}, {"gpu5", "gpu6"}})
        EXPECT_EQ(class_of(gpus, a, b), nvlink) << a << "->" << b;
    for (auto [a, b] : {std::pair{"gpu0", "gpu5"}, {"gpu1", "gpu4"}, {"gpu7", "gpu0"}})
        EXPECT_NE(class_of(gpus, a, b), nvlink) << a << "->" << b;
    const LinkClass& sys = *gpus.find({"gpu0", "gpu5"});
    EXPECT_NE(sys.description.find("SMP"), std::string::npos) << sys.description;
    EXPECT_NE(sys.description.find("PCIe switch shared by 2 GPUs"), std::string::npos) << sys.description;
    const ClassMap hosts = host_classes(g);
    ASSERT_EQ(sizes(hosts), std::vector<std::size_t>({8, 8, 8, 8})) << dump(hosts);
    EXPECT_EQ(class_of(hosts, "numa0", "gpu3"), class_of(hosts, "numa1", "gpu4"));
    EXPECT_EQ(class_of(hosts, "numa1", "gpu0"), class_of(hosts, "numa0", "gpu7"));
    EXPECT_NE(class_of(hosts, "numa0", "gpu3"), class_of(hosts, "numa1", "gpu3"));
}

// 16 V100 on two baseboards of 6 NVSwitches each: pairs on one board reach
// each other through the 6 shared switches, pairs across boards through the
// fabric between the boards; each GPU shares a PCIe switch tree with 3 others.
TEST(LinkClasses, Dgx2SameBoardAgainstAcrossTheFabric) {
    const Graph g = xml_graph("dgx2-nvswitch.xml");
    const ClassMap gpus = gpu_classes(g);
    ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({128, 112})) << dump(gpus);
    EXPECT_EQ(class_of(gpus, "gpu0", "gpu7"), class_of(gpus, "gpu15", "gpu8"));
    EXPECT_NE(class_of(gpus, "gpu0", "gpu7"), class_of(gpus, "gpu0", "gpu8"));
    EXPECT_NE(gpus.find({"gpu0", "gpu8"})->description.find("across the NVSwitch fabric"), std::string::npos);
    const ClassMap hosts = host_classes(g);
    ASSERT_EQ(sizes(hosts), std::vector<std::size_t>({16, 16, 16, 16})) << dump(hosts);
    EXPECT_NE(hosts.find({"numa0", "gpu0"})->description.find("PCIe switch shared by 4 GPUs"), std::string::npos);
}

// POWER8 (Minsky): each CPU reaches its two GPUs over NVLink (2 links); the
// GPUs of one socket are joined by NVLink, those of two sockets are not.
TEST(LinkClasses, MinskyNvlinkToTheCpu) {
    const Graph g = xml_graph("power8gpudistances.xml");
    const ClassMap gpus = gpu_classes(g);
    ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({8, 4})) << dump(gpus);
    EXPECT_NE(gpus.find({"gpu0", "gpu1"})->description.find("NV2 direct"), std::string::npos);
    const ClassMap hosts = host_classes(g);
    ASSERT_EQ(sizes(hosts), std::vector<std::size_t>({4, 4, 4, 4})) << dump(hosts);
    const LinkClass& local = *hosts.find({"numa0", "gpu0"});
    EXPECT_EQ(local.members, (std::vector<ClassMember>{{"numa0", "gpu0"}, {"numa0", "gpu1"}, {"numa1", "gpu2"}, {"numa1", "gpu3"}}));
    EXPECT_NE(local.description.find("bottleneck NVLink 1.0 x2 40 GB/s"), std::string::npos) << local.description;
    EXPECT_NE(hosts.find({"numa1", "gpu0"})->description.find("remote, 1 SMP hop"), std::string::npos);
}

TEST(LinkClasses, AmdXgmiIsOneClass) {
    const Graph g = xml_graph("amd-xgmi.xml");
    const ClassMap gpus = gpu_classes(g);
    ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({56})) << dump(gpus);
    EXPECT_NE(gpus.classes[0].description.find("XGMI 100 GB/s"), std::string::npos);
    EXPECT_EQ(sizes(host_classes(g)), std::vector<std::size_t>({8, 8, 8, 8}));
}

// The lent machines, from their NVML recordings: NV18 through hidden
// NVSwitches; each GPU on its own PCIe 5.0 x16 link.
TEST(LinkClasses, H200RecordingsOneGpuClassOneHostClassPerDirection) {
    for (auto [file, cpus, n] : {std::tuple{"h200x2.json", 32u, 2u}, std::tuple{"h200x4.json", 64u, 4u}}) {
        const Graph g = nvml_graph(file, cpus);
        const ClassMap gpus = gpu_classes(g);
        ASSERT_EQ(sizes(gpus), std::vector<std::size_t>({n * (n - 1)})) << file << "\n" << dump(gpus);
        EXPECT_NE(gpus.classes[0].description.find("NV18"), std::string::npos);
        EXPECT_EQ(sizes(host_classes(g)), std::vector<std::size_t>({n, n})) << file;
    }
}

TEST(LinkClasses, RepresentativesIdsAndOrderDoNotDependOnTheInputOrder) {
    const Graph g = xml_graph("dgx1.xml");
    std::vector<ClassMember> members = topology_members(g);
    const ClassMap a = classify(g, members);
    std::mt19937 rng(7);
    std::shuffle(members.begin(), members.end(), rng);
    members.push_back(members.front());  // a duplicate counts once
    const ClassMap b = classify(g, members);
    EXPECT_EQ(class_map_to_json(a), class_map_to_json(b));
    // Natural order: gpu0->gpu1 represents the NVLink class, c0 is the class of the first representative.
    EXPECT_EQ(a.classes[0].id, "c0");
    EXPECT_EQ(a.classes[0].members.front(), (ClassMember{"gpu0", "gpu1"}));
    for (std::size_t i = 1; i < a.classes.size(); ++i)
        EXPECT_TRUE(natural_less(a.classes[i - 1].members.front(), a.classes[i].members.front()));
    EXPECT_EQ(a.find({"gpu10", "gpu0"}), nullptr);  // not a member
}

TEST(LinkClasses, NaturalOrderComparesNumbersByValue) {
    EXPECT_TRUE(natural_less("gpu2", "gpu10"));
    EXPECT_FALSE(natural_less("gpu10", "gpu2"));
    EXPECT_TRUE(natural_less("gpu1", "gpu01"));  // equal value: the shorter first, never equal
    EXPECT_TRUE(natural_less("gpu", "gpu0"));
    EXPECT_TRUE(natural_less(ClassMember{"gpu1", "gpu9"}, ClassMember{"gpu1", "gpu10"}));
    EXPECT_FALSE(natural_less("numa0", "numa0"));
}

// Two GPUs whose links state no rate: grouped by structure, and said so.
TEST(LinkClasses, UnknownRatesGroupByStructureAndSaySo) {
    Graph g;
    Vertex n{.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0};
    n.numa = NumaInfo{.memory_bytes = 1ull << 30, .pus = {0}, .cores = 1};
    g.add_vertex(n);
    for (int i = 0; i < 3; ++i) {
        const std::string id = std::to_string(i);
        g.add_vertex({.id = "hb" + id, .kind = VertexKind::HostBridge});
        Vertex gpu{.id = "gpu" + id, .kind = VertexKind::Gpu};
        gpu.gpu = GpuInfo{.model = "X", .cuda_ordinal = i};
        g.add_vertex(gpu);
        g.add_edge({.a = "numa0", .b = "hb" + id, .kind = EdgeKind::Membership});
        g.add_edge({.a = "hb" + id, .b = "gpu" + id, .kind = EdgeKind::Pcie, .gbps_per_direction = i == 2 ? 63.0 : 0.0});
    }
    const ClassMap map = classify(g, {{"numa0", "gpu0"}, {"numa0", "gpu1"}, {"numa0", "gpu2"}});
    ASSERT_EQ(map.classes.size(), 2u) << dump(map);
    EXPECT_FALSE(map.classes[0].rates_known);
    EXPECT_EQ(map.classes[0].members.size(), 2u);
    EXPECT_NE(map.classes[0].description.find("grouped by structure"), std::string::npos);
    EXPECT_TRUE(map.classes[1].rates_known);
    ASSERT_EQ(map.notes.size(), 1u);
    EXPECT_NE(map.notes[0].find("link rates unknown for 2 of 3 members"), std::string::npos);
}

TEST(LinkClasses, MembersNamingNoVertexAreLeftOutWithANote) {
    const Graph g = xml_graph("dgx1.xml");
    const ClassMap map = classify(g, {{"gpu0", "gpu1"}, {"gpu0", "gpu9"}, {"numa7", "gpu*"}});
    EXPECT_EQ(map.classes.size(), 1u);
    EXPECT_EQ(map.notes.size(), 2u);
    EXPECT_EQ(map.find({"gpu0", "gpu9"}), nullptr);
}

TEST(LinkClassesJson, RoundTripsAndRefusesMalformedInput) {
    const Graph g = xml_graph("dgx1.xml");
    const ClassMap map = classify(g, topology_members(g));
    const nlohmann::json j = class_map_to_json(map);
    EXPECT_EQ(j["classes"][0]["representative"], nlohmann::json({"gpu0", "gpu1"}));
    const ClassMap back = class_map_from_json(j);
    EXPECT_EQ(class_map_to_json(back), j);
    ASSERT_NE(back.find({"numa1", "gpu2"}), nullptr);
    EXPECT_EQ(back.find({"numa1", "gpu2"})->id, map.find({"numa1", "gpu2"})->id);
    const auto refused = [&](const nlohmann::json& bad) {
        try {
            (void)class_map_from_json(bad);
        } catch (const UsageError& e) {
            const std::string msg = e.what();
            return msg.find('\n') == std::string::npos && msg.rfind("malformed link classes", 0) == 0;
        }
        return false;
    };
    nlohmann::json twice = j;
    twice["classes"][1]["members"].push_back({"gpu0", "gpu1"});  // a member of c0 too
    nlohmann::json no_members = j;
    no_members["classes"][0]["members"] = nlohmann::json::array();
    nlohmann::json same_id = j;
    same_id["classes"][1]["id"] = "c0";
    nlohmann::json bad_member = j;
    bad_member["classes"][0]["members"][0] = {"gpu0"};
    nlohmann::json bad_type = j;
    bad_type["classes"][0]["rates_known"] = "yes";
    for (const nlohmann::json& bad : {nlohmann::json(42), nlohmann::json::object(), nlohmann::json({{"classes", 1}}),
                                      twice, no_members, same_id, bad_member, bad_type})
        EXPECT_TRUE(refused(bad)) << bad.dump().substr(0, 200);
}
