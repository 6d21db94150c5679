// Which CUDA methods apply to which pairs, with which parameters, decided from
// the graph alone (no CUDA call).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/link_rates.hpp"
#include "fixture_graphs.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"
#include "methods/cuda/register.hpp"
#include "methods/group_characterizer.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

struct Counts {
    int pairs = 0;
    int records = 0;
};

Counts count(const Characterizer& m, const Graph& g) {
    Counts c;
    for (const auto& src : g.vertices())
        for (const auto& dst : g.vertices()) {
            if (!m.applicable(g, src, dst).ok) continue;
            ++c.pairs;
            c.records += static_cast<int>(m.parameter_sets(g, src, dst, MethodOptions{}).size());
        }
    return c;
}

Registry cuda_registry() {
    Registry r;
    register_cuda_methods(r);
    return r;
}

}  // namespace

TEST(CudaMethods, RegistersExactlyTheIssueMethodNames) {
    const Registry r = cuda_registry();
    std::set<std::string> names;
    for (const auto& m : r.all()) names.insert(m->name());
    const std::set<std::string> expected{"memcpy-h2d",  "memcpy-d2h",  "memcpy-h2h",       "memcpy-d2d",
                                         "memcpy-peer", "duplex-d2d",  "duplex-h2d",       "sm-copy-d2d",
                                         "sm-copy-d2d-push", "sm-copy-h2d", "sm-copy-d2h", "tma-copy-d2d",
                                         "tma-copy-h2d", "tma-copy-d2h", "all-to-host",
                                         "host-to-all", "one-to-all", "all-to-one", "pairs-sharing-a-link",
                                         "zero-copy-read", "zero-copy-write", "um-prefetch", "um-demand",
                                         "under-load", "lane-sweep", "in-flight", "priority"};
    EXPECT_EQ(names, expected);
    for (const auto& m : r.all()) {
        EXPECT_FALSE(m->description().empty()) << m->name();
        EXPECT_FALSE(m->parameter_docs().empty()) << m->name();
    }
}

TEST(CudaMethods, PairAndRecordCountsOnTwoSocketFourGpuGraph) {
    const Graph g = test::two_socket_four_gpus();
    const Registry r = cuda_registry();
    auto c = [&](const char* name) { return count(*r.find(name), g); };
    // 2 nodes x 4 GPUs, 5 host memory kinds each.
    EXPECT_EQ(c("memcpy-h2d").pairs, 8);
    EXPECT_EQ(c("memcpy-h2d").records, 40);
    EXPECT_EQ(c("memcpy-d2h").records, 40);
    EXPECT_EQ(c("memcpy-h2h").pairs, 4);
    // 16 ordered GPU pairs: 4 same-GPU baselines (no peer param), 4 NVLink
    // pairs (peer on and off), 8 pairs across roots without NVLink (off only).
    EXPECT_EQ(c("memcpy-d2d").pairs, 16);
    EXPECT_EQ(c("memcpy-d2d").records, 4 + 4 * 2 + 8);
    EXPECT_EQ(c("memcpy-peer").pairs, 12);
    EXPECT_EQ(c("memcpy-peer").records, 4 * 2 + 8);
    // Unordered pairs: 2 with NVLink (on, off), 4 without (off).
    EXPECT_EQ(c("duplex-d2d").pairs, 6);
    EXPECT_EQ(c("duplex-d2d").records, 2 * 2 + 4);
    EXPECT_EQ(c("duplex-h2d").records, 8);
    EXPECT_EQ(c("sm-copy-d2d").pairs, 4);
    EXPECT_EQ(c("sm-copy-d2d-push").pairs, 4);
    EXPECT_EQ(c("sm-copy-h2d").pairs, 8);
    EXPECT_EQ(c("sm-copy-d2h").pairs, 8);
    // TMA: the sm-copy pairs, plus each GPU within itself (4) for tma-copy-d2d; the fixture states no
    // compute capability, so nothing is ruled out before the device is asked.
    EXPECT_EQ(c("tma-copy-d2d").pairs, 4 + 4);
    EXPECT_EQ(c("tma-copy-h2d").pairs, 8);
    EXPECT_EQ(c("tma-copy-d2h").pairs, 8);
}

// The bulk-copy unit came with Hopper: a GPU the graph says is older gets the reason, never a record.
TEST(CudaMethods, TmaCopiesApplyFromSm90AndSayWhyNotBefore) {
    Graph g = test::two_socket_four_gpus();
    const Registry r = cuda_registry();
    auto set_cc = [&](const char* id, int major, int minor) {
        g.find(id)->gpu->cc_major = major;
        g.find(id)->gpu->cc_minor = minor;
    };
    set_cc("gpu0", 8, 0);
    set_cc("gpu1", 9, 0);
    for (const char* name : {"tma-copy-d2d", "tma-copy-h2d", "tma-copy-d2h"}) {
        const Characterizer& m = *r.find(name);
        const bool from_host = std::string(name) == "tma-copy-h2d";
        const Vertex& numa0 = *g.find("numa0");
        const Vertex& a100 = *g.find("gpu0");
        const Vertex& h100 = *g.find("gpu1");
        const Applicability old = from_host ? m.applicable(g, numa0, a100)
                                  : std::string(name) == "tma-copy-d2h" ? m.applicable(g, a100, numa0)
                                                                        : m.applicable(g, a100, a100);
        EXPECT_FALSE(old.ok) << name;
        EXPECT_EQ(old.reason, "the bulk-copy unit (TMA, cp.async.bulk) needs sm_90 (Hopper) or newer, not sm_80") << name;
        const Applicability hopper = from_host ? m.applicable(g, numa0, h100)
                                     : std::string(name) == "tma-copy-d2h" ? m.applicable(g, h100, numa0)
                                                                           : m.applicable(g, h100, h100);
        EXPECT_TRUE(hopper.ok) << name << ": " << hopper.reason;
    }
    // Peer: the destination GPU's unit pulls, so an sm_80 destination rules the pair out.
    EXPECT_FALSE(r.find("tma-copy-d2d")->applicable(g, *g.find("gpu1"), *g.find("gpu0")).ok);
    EXPECT_TRUE(r.find("tma-copy-d2d")->applicable(g, *g.find("gpu0"), *g.find("gpu1")).ok);
    // The CUDA methods that need no TMA do not care.
    EXPECT_TRUE(r.find("sm-copy-d2d")->applicable(g, *g.find("gpu0"), *g.find("gpu1")).ok);
    // A round of TMA pulls with an sm_80 reader says why before any CUDA call
    // (this test runs without a GPU): the pull gpu1 -> gpu0 reads on gpu0.
    const std::vector<RoundLane> lanes{{g.find("gpu0"), g.find("gpu1")}, {g.find("gpu1"), g.find("gpu0")}};
    try {
        (void)r.find("tma-copy-d2d")->prepare_round(g, lanes, {{"peer", "on"}}, 1 << 20, MethodOptions{});
        ADD_FAILURE() << "a TMA round with an sm_80 reader was prepared";
    } catch (const Unavailable& e) {
        EXPECT_EQ(std::string(e.what()), "the bulk-copy unit (TMA, cp.async.bulk) needs sm_90 (Hopper) or newer, not sm_80");
    }
}

TEST(CudaMethods, H200VmGraphPeerThroughFabricHiddenGpuAndMemorylessNode) {
    const Graph g = test::h200_vm();
    const Registry r = cuda_registry();
    const Vertex& gpu0 = *g.find("gpu0");
    const Vertex& gpu1 = *g.find("gpu1");
    const Vertex& numa0 = *g.find("numa0");
    const Vertex& numa1 = *g.find("numa1");
    const Vertex& hidden = *g.find("gpu-hidden");

    const auto* d2d = r.find("memcpy-d2d");
    const auto sets = d2d->parameter_sets(g, gpu0, gpu1, {});
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].at("peer"), "on");
    EXPECT_EQ(sets[1].at("peer"), "off");
    EXPECT_EQ(d2d->parameter_sets(g, gpu0, gpu0, {}), std::vector<ParamSet>{ParamSet{}});

    const auto a = d2d->applicable(g, gpu0, hidden);
    EXPECT_FALSE(a.ok);
    EXPECT_NE(a.reason.find("no CUDA ordinal"), std::string::npos) << a.reason;

    const auto* h2d = r.find("memcpy-h2d");
    EXPECT_TRUE(h2d->applicable(g, numa0, gpu1).ok);
    const auto none = h2d->applicable(g, numa1, gpu0);
    EXPECT_FALSE(none.ok);
    EXPECT_NE(none.reason.find("no memory"), std::string::npos) << none.reason;
    EXPECT_FALSE(h2d->applicable(g, gpu0, numa0).ok);  // wrong direction

    const auto h2d_sets = h2d->parameter_sets(g, numa0, gpu1, {});
    ASSERT_EQ(h2d_sets.size(), 5u);
    std::set<std::string> kinds;
    for (const auto& s : h2d_sets) {
        kinds.insert(s.at("host_mem"));
        EXPECT_EQ(s.at("numa"), "0");
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"pageable", "pinned", "registered", "wc", "huge"}));

    const auto sm = r.find("sm-copy-d2d")->applicable(g, gpu1, gpu0);
    EXPECT_TRUE(sm.ok);
    EXPECT_NE(sm.reason.find("nvswitch-fabric"), std::string::npos) << sm.reason;
    EXPECT_TRUE(r.find("duplex-d2d")->applicable(g, gpu0, gpu1).ok);
    EXPECT_FALSE(r.find("duplex-d2d")->applicable(g, gpu1, gpu0).ok);
    EXPECT_EQ(r.find("duplex-h2d")->parameter_sets(g, numa0, gpu0, {}).at(0).at("host_mem"), "pinned");
}

TEST(CudaMethods, NoPeerMethodsWithoutPeerPath) {
    const Graph g = test::two_socket_four_gpus();
    const Registry r = cuda_registry();
    const Vertex& gpu1 = *g.find("gpu1");
    const Vertex& gpu2 = *g.find("gpu2");
    const auto sm = r.find("sm-copy-d2d")->applicable(g, gpu1, gpu2);
    EXPECT_FALSE(sm.ok);
    EXPECT_NE(sm.reason.find("needs peer access"), std::string::npos) << sm.reason;
    const auto sets = r.find("memcpy-peer")->parameter_sets(g, gpu1, gpu2, {});
    ASSERT_EQ(sets.size(), 1u);
    EXPECT_EQ(sets[0].at("peer"), "off");
}

TEST(CudaGraphQueries, PcieRootsPeerPathsAndLinks) {
    const Graph g = test::two_socket_four_gpus();
    EXPECT_EQ(pcie_root_of(g, "gpu0"), "hb0");
    EXPECT_EQ(pcie_root_of(g, "gpu3"), "hb1");
    EXPECT_EQ(pcie_root_of(g, "numa0"), "");
    EXPECT_EQ(peer_path_in_graph(g, *g.find("gpu0"), *g.find("gpu1")).via, "nvlink");
    EXPECT_FALSE(peer_path_in_graph(g, *g.find("gpu0"), *g.find("gpu0")).possible);

    // Same root without NVLink is a PCIe peer path.
    Graph pcie_only = test::two_socket_four_gpus();
    auto& edges = pcie_only.mutable_edges();
    edges.erase(std::remove_if(edges.begin(), edges.end(), [](const Edge& e) { return e.kind == EdgeKind::NvLink; }),
                edges.end());
    const PeerPath p = peer_path_in_graph(pcie_only, *pcie_only.find("gpu2"), *pcie_only.find("gpu3"));
    EXPECT_TRUE(p.possible);
    EXPECT_EQ(p.via, "pcie root hb1");

    // What discovery recorded from CUDA overrides the topology, both ways.
    Graph told = test::two_socket_four_gpus();
    told.find("gpu0")->attrs["peer_access_to_cuda1"] = "no";
    told.find("gpu1")->attrs["peer_access_to_cuda2"] = "yes";
    const PeerPath denied = peer_path_in_graph(told, *told.find("gpu0"), *told.find("gpu1"));
    EXPECT_FALSE(denied.possible);
    EXPECT_EQ(denied.via, "CUDA reports no peer access from gpu0 to gpu1");
    const PeerPath granted = peer_path_in_graph(told, *told.find("gpu1"), *told.find("gpu2"));
    EXPECT_TRUE(granted.possible);
    EXPECT_EQ(granted.via, "CUDA reports peer access");

    const auto link = gpu_pcie_link(g, *g.find("gpu3"));
    ASSERT_TRUE(link);
    EXPECT_EQ(link->generation, 4);
    EXPECT_EQ(link->width, 8);
    EXPECT_FALSE(gpu_pcie_link(g, *g.find("numa0")));
}

TEST(CudaMethods, BadParameterIsAUsageErrorBeforeAnyCudaCall) {
    const Graph g = test::h200_vm();
    const Registry r = cuda_registry();
    EXPECT_THROW(r.find("memcpy-h2d")->prepare(g, *g.find("numa0"), *g.find("gpu0"),
                                               {{"host_mem", "bogus"}, {"numa", "0"}}, 1 << 20, {}),
                 UsageError);
    EXPECT_THROW(r.find("duplex-d2d")->prepare(g, *g.find("gpu0"), *g.find("gpu1"), {}, 1 << 20, {}), UsageError);
    try {
        param_or_throw({{"peer", "maybe"}}, "peer", {"on", "off"}, "memcpy-peer");
        FAIL() << "no throw";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "memcpy-peer: parameter peer=maybe is not one of on|off");
    }
}

namespace {

const GroupCharacterizer& group(const Registry& r, const char* name) {
    const auto* m = dynamic_cast<const GroupCharacterizer*>(r.find(name));
    if (!m) throw std::runtime_error(std::string(name) + " is not a concurrency method");
    return *m;
}

std::vector<std::string> ids(const EndpointSet& s) {
    std::vector<std::string> out;
    for (const Vertex* v : s.vertices) out.push_back(v->id);
    return out;
}

}  // namespace

TEST(ConcurrencyMethods, EndpointSetsOnTwoSocketFourGpuGraph) {
    Graph g = test::two_socket_four_gpus();
    for (Edge& e : g.mutable_edges())
        if (e.pcie) e.gbps_per_direction = pcie_link_gbps(e.pcie->generation, e.pcie->width);
    const Registry r = cuda_registry();

    const auto to_host = group(r, "all-to-host").endpoint_sets(g);
    ASSERT_EQ(to_host.size(), 2u);  // one per NUMA node
    EXPECT_EQ(to_host[1].src_id, "gpu*");
    EXPECT_EQ(to_host[1].dst_id, "numa1");
    EXPECT_EQ(ids(to_host[1]), (std::vector<std::string>{"numa1", "gpu0", "gpu1", "gpu2", "gpu3"}));
    EXPECT_EQ(group(r, "all-to-host").set_parameter_sets(g, to_host[0], {}).size(), 2u);  // ce and sm

    // Peers only over NVLink here: each GPU has one partner.
    const auto to_one = group(r, "all-to-one").endpoint_sets(g);
    ASSERT_EQ(to_one.size(), 4u);
    EXPECT_EQ(to_one[2].src_id, "gpu*-gpu2");
    EXPECT_EQ(ids(to_one[2]), (std::vector<std::string>{"gpu2", "gpu3"}));
    EXPECT_NE(to_one[2].note.find("gpu0"), std::string::npos) << to_one[2].note;  // left out, with why
    const auto from_one = group(r, "one-to-all").endpoint_sets(g);
    EXPECT_EQ(from_one[0].dst_id, "gpu*-gpu0");

    // gpu0 and gpu1 share the switch uplink hb0->sw0 (ties go to the first
    // bottleneck on the way); gpu3's own Gen4 x8 link is its bottleneck, shared
    // only by two transfers to (or from) gpu3 from the two NUMA nodes.
    const auto shared = group(r, "pairs-sharing-a-link").endpoint_sets(g);
    bool numa0_pair = false;
    for (const auto& s : shared) {
        EXPECT_TRUE(s.applicability.ok);
        // gpu3's own link is its bottleneck: only transfers to or from gpu3 itself share it.
        const auto v = ids(s);
        if (std::count(v.begin(), v.end(), "gpu3") > 0) {
            EXPECT_EQ(std::count(v.begin(), v.end(), "gpu3"), 2) << s.note;
        }
        if (s.src_id == "numa0" && s.dst_id == "gpu0+gpu1") {
            numa0_pair = true;
            EXPECT_NE(s.note.find("hb0->sw0"), std::string::npos) << s.note;
        }
    }
    EXPECT_TRUE(numa0_pair);
}

TEST(ConcurrencyMethods, OneGpuMachinesHaveNoConcurrencySets) {
    Graph g;
    g.add_vertex(test::numa_vertex(0));
    g.add_vertex(test::gpu_vertex(0));
    const Registry r = cuda_registry();
    const auto sets = group(r, "all-to-host").endpoint_sets(g);
    ASSERT_EQ(sets.size(), 1u);
    EXPECT_FALSE(sets[0].applicability.ok);
    EXPECT_NE(sets[0].applicability.reason.find("two or more"), std::string::npos);
    EXPECT_FALSE(group(r, "all-to-one").endpoint_sets(g)[0].applicability.ok);
}

// The TMA latency and the loaded latency (issue 22 items 3 and 6), planned on fixtures without a GPU.
TEST(CudaMethods, TmaLatencyNeedsSm90AndLoadedLatencyPlansItsLoadLevelsBeyondL2) {
    Graph g = test::two_socket_four_gpus();
    g.find("gpu0")->gpu->cc_major = 8;
    const auto tma = gpumem::make_tma_latency();
    EXPECT_EQ(tma->name(), "gpumem-tma-latency");
    const Applicability old = tma->applicable(g, *g.find("gpu0"), *g.find("numa0"));
    EXPECT_FALSE(old.ok);
    EXPECT_NE(old.reason.find("needs sm_90"), std::string::npos) << old.reason;
    EXPECT_TRUE(tma->applicable(g, *g.find("gpu2"), *g.find("numa1")).ok);  // compute capability unknown: asked at prepare

    const auto loaded = gpumem::make_loaded_latency();
    EXPECT_EQ(loaded->name(), "gpumem-loaded-latency");
    EXPECT_TRUE(loaded->applicable(g, *g.find("gpu0"), *g.find("gpu0")).ok);
    EXPECT_TRUE(loaded->applicable(g, *g.find("gpu0"), *g.find("gpu1")).ok);   // NVLink peers
    EXPECT_FALSE(loaded->applicable(g, *g.find("gpu0"), *g.find("gpu2")).ok);  // no peer path
    const auto axes = loaded->axes();
    ASSERT_EQ(axes.size(), 1u);
    EXPECT_EQ(axes[0].name, "load");
    EXPECT_EQ(axes[0].values, (std::vector<nlohmann::json>{"none", "same", "both"}));
    // Working sets beyond any L2 only: 64 and 256 MiB of the run's sizes.
    const std::vector<std::uint64_t> run_sizes{4096, 1u << 20, 64u << 20, 128u << 20, 256u << 20, 1u << 30};
    EXPECT_EQ(loaded->size_policy().apply(run_sizes), (std::vector<std::uint64_t>{64u << 20, 256u << 20}));
}
