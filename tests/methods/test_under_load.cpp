// Transfers under load: --under-load SPEC parsing and resolution, and the
// default load scenarios planned from fixture graphs (no GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "discover/discover.hpp"
#include "methods/load_scenarios.hpp"
#include "methods/under_load.hpp"

using namespace hwcomm;

namespace {

std::string fixture(const std::string& relative) { return std::string(HWCOMM_FIXTURES) + "/" + relative; }

Graph from_xml(const std::string& name) { return discover_machine({.input_xml = fixture("hwloc/" + name)}); }

// One NUMA node, gpu0..gpu3 each under its own host bridge (the 4x H200 VM's shape):
// the four host-to-GPU routes share no edge, only the host side of numa0.
Graph four_roots() {
    Graph g;
    Vertex n{.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0};
    n.numa = NumaInfo{.memory_bytes = 64ull << 30, .cores = 16};
    g.add_vertex(n);
    for (int i = 0; i < 4; ++i) {
        const std::string id = std::to_string(i);
        g.add_vertex({.id = "hb" + id, .kind = VertexKind::HostBridge});
        Vertex gpu{.id = "gpu" + id, .kind = VertexKind::Gpu};
        gpu.gpu = GpuInfo{.cuda_ordinal = i};
        g.add_vertex(gpu);
        g.add_edge({.a = "numa0", .b = "hb" + id, .kind = EdgeKind::Membership});
        g.add_edge({.a = "hb" + id, .b = "gpu" + id, .kind = EdgeKind::Pcie, .gbps_per_direction = 63});
    }
    return g;
}

std::string usage_error(const std::string& spec) {
    try {
        (void)parse_load_spec(spec);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(LoadSpec, ParsesRoutesAndFans) {
    LoadSpec s = parse_load_spec("memcpy-h2d numa0->gpu1");
    EXPECT_EQ(s.method, "memcpy-h2d");
    EXPECT_EQ(s.src, "numa0");
    EXPECT_EQ(s.dst, "gpu1");
    s = parse_load_spec("  all-to-host  ");
    EXPECT_EQ(s.method, "all-to-host");
    EXPECT_EQ(s.src, "");
    s = parse_load_spec("all-to-one gpu2");
    EXPECT_EQ(s.src, "gpu2");
    EXPECT_EQ(parse_load_spec("memcpy-peer gpu0->gpu1").dst, "gpu1");
}

TEST(LoadSpec, MalformedSpecsAreOneLineUsageErrors) {
    const std::vector<std::string> bads{"", "   ", "memcpy-h2d", "memcpy-h2d numa0", "memcpy-h2d numa0->", "memcpy-h2d ->gpu1",
          "memcpy-h2d numa0->gpu1->gpu2", "memcpy-h2d gpu0->gpu0", "frob numa0->gpu1", "all-to-one",
          "all-to-host numa0->gpu1", "memcpy-h2d numa0->gpu1 extra", std::string(300, 'a'),
          std::string("memcpy-h2d numa0->gpu1\nx"), std::string("all-to-host\x01\x02", 13)};
    for (const std::string& bad : bads) {
        const std::string msg = usage_error(bad);
        EXPECT_FALSE(msg.empty()) << "accepted: " << bad;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_EQ(msg.rfind("--under-load", 0), 0u) << msg;
        EXPECT_LT(msg.size(), 300u) << msg;
    }
}

TEST(LoadSpec, ResolvesAgainstTheGraph) {
    const Graph g = four_roots();
    auto routes = resolve_load_spec(g, parse_load_spec("memcpy-h2d numa0->gpu1"));
    ASSERT_EQ(routes.size(), 1u);
    EXPECT_EQ(routes[0].label(), "numa0->gpu1");
    EXPECT_EQ(routes[0].direction, LoadDirection::HostToGpu);
    routes = resolve_load_spec(g, parse_load_spec("all-to-host"));
    ASSERT_EQ(routes.size(), 4u);  // every CUDA GPU to the first host node
    EXPECT_EQ(routes[3].label(), "gpu3->numa0");
    EXPECT_EQ(resolve_load_spec(g, parse_load_spec("one-to-all gpu1")).size(), 3u);
    EXPECT_EQ(resolve_load_specs(g, {parse_load_spec("host-to-all numa0"), parse_load_spec("memcpy-peer gpu0->gpu2")}).size(), 5u);
    for (const char* bad : {"memcpy-h2d numa9->gpu1", "memcpy-h2d gpu0->gpu1", "memcpy-d2h gpu0->hb0",
                            "all-to-host gpu0", "all-to-one numa0"})
        EXPECT_THROW(resolve_load_spec(g, parse_load_spec(bad)), UsageError) << bad;
}

TEST(LoadScenarios, FourGpusOnOneHostSideGiveAloneAndOneToThreeLoads) {
    const Graph g = four_roots();
    const auto res = shared_resources(g, host_to_gpu_routes(g), true);
    ASSERT_EQ(res.size(), 1u);  // no edge is shared; the host side of numa0 is
    EXPECT_EQ(res[0].label, "host side of numa0");
    const auto sc = exhaustive_load_scenarios(res);
    ASSERT_EQ(sc.size(), 16u);  // 4 routes x (alone + 1, 2, 3 others)
    EXPECT_EQ(sc[0].measured.dst->id, "gpu0");
    EXPECT_TRUE(sc[0].loads.empty());
    ASSERT_EQ(sc[3].loads.size(), 3u);
    EXPECT_EQ(sc[3].loads[2].dst->id, "gpu3");
    EXPECT_EQ(sc[3].shared, "host side of numa0");
    EXPECT_TRUE(shared_resources(g, host_to_gpu_routes(g), false).empty());
}

// Minsky: each socket's host side (4 routes), the SMP link each way (the 2
// routes to the far socket's GPUs), each GPU's NVLink to its socket (both
// sockets' routes to it): 8 resources; 4 x 4 + 4 x 4 scenarios from the host
// sides, +2 over the SMP link (numa0->gpu2 loaded by numa0->gpu3 and back;
// numa1's pair repeats a host-side scenario), +8 over the GPU links.
TEST(LoadScenarios, MinskyRoutesShareTheHostSidesTheSmpLinkAndEachGpusNvlink) {
    const Graph g = from_xml("power8gpudistances.xml");
    ASSERT_EQ(load_gpus(g).size(), 4u);
    ASSERT_EQ(load_host_nodes(g).size(), 2u);
    const auto res = shared_resources(g, host_to_gpu_routes(g), true);
    ASSERT_EQ(res.size(), 8u);
    std::map<std::string, std::size_t> sizes;
    for (const auto& r : res) sizes[r.label] = r.routes.size();
    EXPECT_EQ(sizes["host side of numa0"], 4u);
    EXPECT_EQ(sizes["edge package0->package1"], 2u);
    EXPECT_EQ(sizes["edge package0->gpu0 (40 GB/s)"], 2u);
    const auto sc = exhaustive_load_scenarios(res);
    EXPECT_EQ(sc.size(), 42u);
    std::size_t alone = 0;
    for (const auto& s : sc) alone += s.loads.empty();
    EXPECT_EQ(alone, 8u);  // each of the 8 routes once
    // GPU to host: the mirror image.
    EXPECT_EQ(exhaustive_load_scenarios(shared_resources(g, gpu_to_host_routes(g), true)).size(), 42u);
}

// DGX-1 (8 GPUs in pairs behind 4 PCIe switches, 2 sockets): the host sides
// (8 routes each), the SMP link each way, each host bridge, each switch
// uplink (4 routes: 2 GPUs from 2 nodes) and each GPU's own link: 18.
TEST(LoadScenarios, Dgx1SwitchUplinksAndHostSides) {
    const Graph g = from_xml("dgx1.xml");
    ASSERT_EQ(load_gpus(g).size(), 8u);
    const auto res = shared_resources(g, host_to_gpu_routes(g), true);
    ASSERT_EQ(res.size(), 18u);
    std::size_t uplinks = 0;
    for (const auto& r : res)
        if (r.label.find("15.75") != std::string::npos && r.routes.size() == 4) ++uplinks;
    EXPECT_EQ(uplinks, 4u);
    const auto sc = exhaustive_load_scenarios(res);
    EXPECT_EQ(sc.size(), 276u);
    std::size_t max_loads = 0;
    for (const auto& s : sc) max_loads = std::max(max_loads, s.loads.size());
    EXPECT_EQ(max_loads, 7u);  // one route with the 7 others of its host side
}

// Scenarios from classes (issue 21 item 7): per class of shared resource, on
// its representative, one route per class of its routes, alone and with 1,
// half and all of the others loading it.
TEST(ClassLoadScenarios, FourGpusOnOneHostSideOneRouteWithOneTwoAndThreeLoads) {
    const Graph g = four_roots();
    const auto res = shared_resources(g, host_to_gpu_routes(g), true);
    ASSERT_EQ(resource_classes(g, res).size(), 1u);
    const auto sc = class_load_scenarios(g, res);
    ASSERT_EQ(sc.size(), 4u);  // numa0->gpu0 alone, then 1, 2 (half of 3, up) and 3 loads
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(sc[i].measured.dst->id, "gpu0");
        EXPECT_EQ(sc[i].loads.size(), i);
    }
    EXPECT_EQ(sc[3].loads[2].dst->id, "gpu3");
    EXPECT_EQ(sc[3].shared, "host side of numa0");
    const auto sweeps = lane_sweeps(g, res);
    ASSERT_EQ(sweeps.size(), 4u);  // 1, 2, 3, 4 routes at once
    EXPECT_EQ(sweeps[0].src_id, "numa0");
    EXPECT_EQ(sweeps[0].dst_id, "gpu0");
    EXPECT_EQ(sweeps[3].dst_id, "gpu0+gpu1+gpu2+gpu3");
    EXPECT_EQ(sweeps[3].shared, "host side of numa0");
}

// DGX-1: 18 resources per direction in 5 classes (the host sides, the SMP
// link, the host bridges, the PCIe switch uplinks, each GPU's own link, which
// local and remote routes cross); on each, the local and the remote route
// class where both cross it. 276 scenarios before, 22 now.
TEST(ClassLoadScenarios, Dgx1FiveResourceClasses) {
    const Graph g = from_xml("dgx1.xml");
    const auto res = shared_resources(g, host_to_gpu_routes(g), true);
    ASSERT_EQ(res.size(), 18u);
    const auto classes = resource_classes(g, res);
    std::vector<std::size_t> members;
    for (const auto& c : classes) members.push_back(c.members.size());
    EXPECT_EQ(members, (std::vector<std::size_t>{2, 2, 2, 4, 8}));
    EXPECT_EQ(classes[0].members.front()->label, "host side of numa0");
    EXPECT_EQ(classes[1].members.front()->label, "edge package0->package1");  // the SMP link, not a membership edge
    EXPECT_EQ(exhaustive_load_scenarios(res).size(), 276u);
    const auto sc = class_load_scenarios(g, res);
    EXPECT_EQ(sc.size(), 22u);
    std::set<std::string> alone;
    std::size_t max_loads = 0;
    for (const auto& s : sc) {
        if (s.loads.empty()) alone.insert(s.measured.src->id + ">" + s.measured.dst->id);
        max_loads = std::max(max_loads, s.loads.size());
    }
    // numa0 to a local and to a remote GPU, numa1 to gpu0 (the remote class of gpu0's own link).
    EXPECT_EQ(alone, (std::set<std::string>{"numa0>gpu0", "numa0>gpu4", "numa1>gpu0"}));
    EXPECT_EQ(max_loads, 7u);
    // lane_counts(k) on each class's representative (6 + 4 + 6 + 4 + 2 for k = 8,
    // 4, 8, 4, 2), less the sets planned twice (the host bridge's first route
    // sets are the host side's).
    EXPECT_EQ(lane_sweeps(g, res).size(), 15u);
}

// Twice the GPUs, as many classes: the DGX-2 (16 GPUs) plans what the DGX-1
// and the DGX H100 (8 GPUs) do, not the square of its routes (864 before).
TEST(ClassLoadScenarios, GrowWithClassesNotWithGpus) {
    std::map<std::string, std::size_t> counts;
    for (const char* f : {"dgxh100-nvswitch.xml", "dgx1.xml", "dgx2-nvswitch.xml"}) {
        const Graph g = from_xml(f);
        for (const auto& routes : {host_to_gpu_routes(g), gpu_to_host_routes(g)})
            counts[f] += class_load_scenarios(g, shared_resources(g, routes, true)).size();
    }
    EXPECT_EQ(counts["dgxh100-nvswitch.xml"], 28u);
    EXPECT_EQ(counts["dgx1.xml"], 44u);
    EXPECT_EQ(counts["dgx2-nvswitch.xml"], 44u);
    const Graph dgx2 = from_xml("dgx2-nvswitch.xml");
    EXPECT_EQ(exhaustive_load_scenarios(shared_resources(dgx2, host_to_gpu_routes(dgx2), true)).size(), 864u);
}

// Through NVSwitches, GPU-to-GPU routes share their source's NVLinks out and
// their destination's NVLinks in (all bonds), not the one switch a route is drawn through.
// Every count up to 4 (the knee of the capacity curves measured), then about
// 1.5x each step, and all the routes.
TEST(LaneSweeps, CountsAreDenseUpToFourThenGeometricAndEndAtAll) {
    using C = std::vector<std::size_t>;
    EXPECT_EQ(lane_counts(1), (C{1}));
    EXPECT_EQ(lane_counts(2), (C{1, 2}));
    EXPECT_EQ(lane_counts(4), (C{1, 2, 3, 4}));
    EXPECT_EQ(lane_counts(5), (C{1, 2, 3, 4, 5}));
    EXPECT_EQ(lane_counts(6), (C{1, 2, 3, 4, 6}));
    EXPECT_EQ(lane_counts(7), (C{1, 2, 3, 4, 6, 7}));
    EXPECT_EQ(lane_counts(8), (C{1, 2, 3, 4, 6, 8}));
    EXPECT_EQ(lane_counts(16), (C{1, 2, 3, 4, 6, 9, 14, 16}));
}

TEST(ClassLoadScenarios, NvswitchRoutesShareTheGpusNvlinksInAndOut) {
    const Graph g = from_xml("dgxh100-nvswitch.xml");
    std::vector<Route> d2d;
    for (const Vertex* a : load_gpus(g))
        for (const Vertex* b : load_gpus(g))
            if (a != b) d2d.push_back({a, b});
    const auto res = shared_resources(g, d2d, false);
    ASSERT_EQ(res.size(), 16u);  // each GPU's NVLinks out and in, 7 routes each
    for (const auto& r : res) EXPECT_EQ(r.routes.size(), 7u) << r.label;
    EXPECT_EQ(res[0].label, "NVLinks into gpu0 (18 links, 478.125 GB/s)");
    const auto classes = resource_classes(g, res);
    ASSERT_EQ(classes.size(), 2u);  // in, out
    const auto sc = class_load_scenarios(g, res);
    EXPECT_EQ(sc.size(), 8u);  // 2 x (alone, 1, 3, 6 loads)
    const auto sweeps = lane_sweeps(g, res);
    ASSERT_EQ(sweeps.size(), 12u);  // 1, 2, 3, 4, 6, 7 lanes into gpu0 and out of gpu0
    EXPECT_EQ(sweeps[4].src_id, "gpu1+gpu2+gpu3+gpu4+gpu5+gpu6");
    EXPECT_EQ(sweeps[5].src_id, "gpu1+gpu2+gpu3+gpu4+gpu5+gpu6+gpu7");
    EXPECT_EQ(sweeps[5].dst_id, "gpu0");
}
