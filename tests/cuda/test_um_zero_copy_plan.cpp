// Planning of um-prefetch, um-demand, zero-copy-read and zero-copy-write from
// the graph alone (no CUDA call): which pairs each takes, with which
// parameters and why not; the managed-memory cap; the host residency query.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <fstream>
#include <set>
#include <vector>

#include "core/graph_json.hpp"
#include "fixture_graphs.hpp"
#include "methods/cuda/register.hpp"
#include "methods/cuda/um/host_residency.hpp"
#include "methods/cuda/um/managed_caps.hpp"
#include "platform/page_placement.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

struct Plan {
    std::set<std::string> pairs;  // "src->dst"
    int records = 0;
};

Plan plan(const Characterizer& m, const Graph& g) {
    Plan p;
    for (const auto& src : g.vertices())
        for (const auto& dst : g.vertices()) {
            if (!m.applicable(g, src, dst).ok) continue;
            p.pairs.insert(src.id + "->" + dst.id);
            p.records += static_cast<int>(m.parameter_sets(g, src, dst, MethodOptions{}).size());
        }
    return p;
}

const Characterizer& method(const Registry& r, const char* name) {
    const Characterizer* m = r.find(name);
    if (!m) throw std::runtime_error(std::string("not registered: ") + name);
    return *m;
}

Registry registry() {
    Registry r;
    register_cuda_methods(r);
    return r;
}

}  // namespace

TEST(UmPlan, H200VmPairsOfEveryUmAndZeroCopyMethod) {
    const Graph g = test::h200_vm();
    const Registry r = registry();
    const std::set<std::string> um_pairs{"numa0->gpu0", "numa0->gpu1", "gpu0->numa0",
                                         "gpu1->numa0", "gpu0->gpu1",  "gpu1->gpu0"};
    for (const char* name : {"um-prefetch", "um-demand"}) {
        const Plan p = plan(method(r, name), g);
        EXPECT_EQ(p.pairs, um_pairs) << name;
        EXPECT_EQ(p.records, 6) << name;  // one parameter set per pair
    }
    const Plan read = plan(method(r, "zero-copy-read"), g);
    EXPECT_EQ(read.pairs, (std::set<std::string>{"numa0->gpu0", "numa0->gpu1", "gpu0->gpu1", "gpu1->gpu0"}));
    EXPECT_EQ(read.records, 2 * 2 + 2);  // pinned and registered per host pair, peer=on per GPU pair
    const Plan write = plan(method(r, "zero-copy-write"), g);
    EXPECT_EQ(write.pairs, (std::set<std::string>{"gpu0->numa0", "gpu1->numa0", "gpu0->gpu1", "gpu1->gpu0"}));
    EXPECT_EQ(write.records, 6);
}

// The graph discovery made of the lent 2x H200 machine (docs/examples): the
// same 24 records as the hand-made twin above.
TEST(UmPlan, DiscoveredH200x2TopologyPlansTwentyFourRecords) {
    std::ifstream in(std::string(HWCOMM_DOCS) + "/examples/h200x2/topo.json");
    ASSERT_TRUE(in) << "docs/examples/h200x2/topo.json";
    const Graph g = graph_from_json(nlohmann::json::parse(in));
    const Registry r = registry();
    int records = 0;
    for (const char* name : {"um-prefetch", "um-demand", "zero-copy-read", "zero-copy-write"}) {
        const Plan p = plan(method(r, name), g);
        EXPECT_EQ(p.pairs.size(), name[0] == 'u' ? 6u : 4u) << name;
        records += p.records;
    }
    EXPECT_EQ(records, 24);
    EXPECT_TRUE(plan(method(r, "zero-copy-read"), g).pairs.count("gpu1->gpu0"));  // through the NVSwitch fabric
}

TEST(UmPlan, TwoSocketFourGpuCounts) {
    const Graph g = test::two_socket_four_gpus();
    const Registry r = registry();
    // 2 nodes x 4 GPUs both ways, plus 12 ordered GPU pairs: managed pages
    // migrate between any two GPUs, peer-capable or not.
    EXPECT_EQ(plan(method(r, "um-prefetch"), g).records, 16 + 12);
    EXPECT_EQ(plan(method(r, "um-demand"), g).records, 16 + 12);
    // 8 host pairs x 2 host memory kinds, plus the 4 ordered peer pairs
    // (gpu0-gpu1, gpu2-gpu3): no peer pointer between the other GPUs.
    EXPECT_EQ(plan(method(r, "zero-copy-read"), g).records, 16 + 4);
    EXPECT_EQ(plan(method(r, "zero-copy-write"), g).records, 16 + 4);
    EXPECT_FALSE(method(r, "zero-copy-read").applicable(g, *g.find("gpu0"), *g.find("gpu2")).ok);
    EXPECT_TRUE(method(r, "um-demand").applicable(g, *g.find("gpu0"), *g.find("gpu2")).ok);
}

TEST(UmPlan, ParametersAndReasonsWhyNot) {
    const Graph g = test::h200_vm();
    const Registry r = registry();
    const Vertex& numa0 = *g.find("numa0");
    const Vertex& numa1 = *g.find("numa1");
    const Vertex& gpu0 = *g.find("gpu0");
    const Vertex& gpu1 = *g.find("gpu1");
    const Vertex& hidden = *g.find("gpu-hidden");
    const auto& prefetch = method(r, "um-prefetch");
    EXPECT_EQ(prefetch.parameter_sets(g, numa0, gpu1, {}), (std::vector<ParamSet>{ParamSet{{"numa", "0"}}}));
    EXPECT_EQ(prefetch.parameter_sets(g, gpu1, numa0, {}), (std::vector<ParamSet>{ParamSet{{"numa", "0"}}}));
    EXPECT_EQ(prefetch.parameter_sets(g, gpu0, gpu1, {}), (std::vector<ParamSet>{ParamSet{}}));
    auto reason = [&](const Characterizer& m, const Vertex& a, const Vertex& b) {
        const Applicability ap = m.applicable(g, a, b);
        EXPECT_FALSE(ap.ok) << a.id << "->" << b.id;
        return ap.reason;
    };
    EXPECT_NE(reason(prefetch, gpu0, gpu0).find("same GPU"), std::string::npos);
    EXPECT_NE(reason(prefetch, numa0, numa0).find("host to host"), std::string::npos);
    EXPECT_NE(reason(prefetch, numa1, gpu0).find("no memory"), std::string::npos);
    EXPECT_NE(reason(prefetch, hidden, gpu0).find("no CUDA ordinal"), std::string::npos);
    const auto& read = method(r, "zero-copy-read");
    EXPECT_NE(reason(read, gpu0, numa0).find("reader (destination) must be a GPU"), std::string::npos);
    EXPECT_NE(reason(read, gpu0, gpu0).find("same GPU"), std::string::npos);
    const auto sets = read.parameter_sets(g, numa0, gpu0, {});
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].at("host_mem"), "pinned");
    EXPECT_EQ(sets[1].at("host_mem"), "registered");
    EXPECT_EQ(read.parameter_sets(g, gpu1, gpu0, {}), (std::vector<ParamSet>{ParamSet{{"peer", "on"}}}));
    EXPECT_NE(reason(method(r, "zero-copy-write"), numa0, gpu0).find("writer (source) must be a GPU"),
              std::string::npos);
}

TEST(UmPlan, UmMethodsMeasureWholePagesOnly) {
    const Registry r = registry();
    const std::vector<std::uint64_t> sweep{1, 1024, 4096, 6000, 1 << 20};
    for (const char* name : {"um-prefetch", "um-demand"})
        EXPECT_EQ(method(r, name).size_policy().apply(sweep), (std::vector<std::uint64_t>{4096, 8192, 1 << 20}))
            << name;
    EXPECT_EQ(method(r, "zero-copy-read").size_policy().apply(sweep), sweep);
}

TEST(ManagedCap, NeverMoreThanHalfOfAnyGpuFreeMemoryOrOfTheHost) {
    const std::size_t GiB = 1ull << 30;
    ManagedCap c = cap_managed_bytes(GiB, {{0, 100 * GiB}, {1, 100 * GiB}}, 64 * GiB);
    EXPECT_EQ(c.max_bytes, GiB);
    EXPECT_EQ(c.limited_by, "asked");
    c = cap_managed_bytes(64 * GiB, {{0, 100 * GiB}, {1, 10 * GiB + 3}}, 512 * GiB);
    EXPECT_EQ(c.max_bytes, 5 * GiB);  // half of gpu1's free, whole pages
    EXPECT_EQ(c.limited_by, "half of gpu1 free memory");
    c = cap_managed_bytes(64 * GiB, {{0, 100 * GiB}}, 12 * GiB);  // the 12 GiB VM of the 2x H200 machine
    EXPECT_EQ(c.max_bytes, 6 * GiB);
    EXPECT_EQ(c.limited_by, "half of the host's available memory");
    EXPECT_EQ(cap_managed_bytes(GiB, {{0, 4096}}, 64 * GiB).max_bytes, 0u);  // half a page rounds to nothing
}

TEST(HostResidency, TouchedPagesArePresentUntouchedAreNot) {
    const std::size_t page = page_size();
    const std::size_t bytes = 64 * page;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    auto* b = static_cast<std::byte*>(p);
    const HostResidency untouched = host_residency(b, bytes);
    if (untouched.unknown == untouched.pages) {
        munmap(p, bytes);
        GTEST_SKIP() << "move_pages(2) is not available here";
    }
    EXPECT_EQ(untouched.pages, 64u);
    EXPECT_EQ(untouched.not_present, 64u);
    EXPECT_EQ(untouched.present(), 0u);
    std::memset(b, 1, bytes / 2);  // the first 32 pages
    const HostResidency half = host_residency(b, bytes);
    EXPECT_EQ(half.present(), 32u);
    EXPECT_EQ(half.not_present, 32u);
    EXPECT_EQ(to_json(half).at("pages").get<std::size_t>(), 64u);
    // An unaligned range counts every page it touches.
    EXPECT_EQ(host_residency(b + page - 1, 2).pages, 2u);
    munmap(p, bytes);
}
