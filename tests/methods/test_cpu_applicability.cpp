#include <gtest/gtest.h>

#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/register.hpp"
#include "numa_graphs.hpp"
#include "run/plan.hpp"

using namespace hwcomm;

namespace {

Registry cpu_registry() {
    Registry r;
    register_cpu_methods(r);
    return r;
}

std::size_t applicable_pairs(const Graph& g, const Characterizer& m) {
    std::size_t n = 0;
    for (const auto& p : method_pairs(g, m)) n += p.applicability.ok;
    return n;
}

}  // namespace

TEST(CpuMethods, RegisteredByName) {
    const Registry r = cpu_registry();
    ASSERT_EQ(r.all().size(), 3u);
    EXPECT_NE(r.find("cpu-read"), nullptr);
    EXPECT_NE(r.find("cpu-write"), nullptr);
    EXPECT_NE(r.find("memcpy"), nullptr);
}

TEST(CpuMethods, TwoSocketFixtureHasAllFourOrderedPairs) {
    const Graph g = test::numa_graph_from_xml(HWCOMM_FIXTURES "/hwloc/24em64t-2n6c2t-pci.xml");
    ASSERT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    const Registry r = cpu_registry();
    for (const char* m : {"cpu-read", "cpu-write", "memcpy"}) EXPECT_EQ(applicable_pairs(g, *r.find(m)), 4u) << m;
    // 3 methods x 4 pairs, memcpy twice (single, multi): 16 records, same-node pairs included.
    const auto plan = build_plan(g, r, Filters{}, MethodOptions{});
    EXPECT_EQ(plan.size(), 16u);
    EXPECT_EQ(plan.front().key, "cpu-read|numa0|numa0|");
}

TEST(CpuMethods, MemoryOnlyNodeCannotRunWorkers) {
    Graph g;
    g.add_vertex(test::numa_vertex(0, 4));
    g.add_vertex(test::numa_vertex(1, 0));  // memory-only (CXL, HBM)
    const Registry r = cpu_registry();
    const Vertex& cpu = *g.find("numa0");
    const Vertex& mem = *g.find("numa1");
    // cpu-read runs on the destination: reading *from* memory-only works, reading *into* it does not.
    EXPECT_TRUE(r.find("cpu-read")->applicable(g, mem, cpu).ok);
    const auto no = r.find("cpu-read")->applicable(g, cpu, mem);
    EXPECT_FALSE(no.ok);
    EXPECT_NE(no.reason.find("numa1 has no CPU cores"), std::string::npos);
    // cpu-write and memcpy run on the source.
    EXPECT_TRUE(r.find("cpu-write")->applicable(g, cpu, mem).ok);
    EXPECT_FALSE(r.find("cpu-write")->applicable(g, mem, cpu).ok);
    EXPECT_FALSE(r.find("memcpy")->applicable(g, mem, cpu).ok);
}

TEST(CpuMethods, OnlyNumaNodesAreEndpoints) {
    Graph g;
    g.add_vertex(test::numa_vertex(0, 2));
    Vertex gpu;
    gpu.id = "gpu0";
    gpu.kind = VertexKind::Gpu;
    g.add_vertex(gpu);
    const Registry r = cpu_registry();
    EXPECT_FALSE(r.find("cpu-read")->applicable(g, *g.find("gpu0"), *g.find("numa0")).ok);
    EXPECT_EQ(method_pairs(g, *r.find("cpu-read")).size(), 1u);  // numa0 -> numa0 only
}

TEST(CpuMethods, MemcpyThreadParameters) {
    Graph g;
    g.add_vertex(test::numa_vertex(0, 8));
    g.add_vertex(test::numa_vertex(1, 1));
    const Registry r = cpu_registry();
    const Characterizer& m = *r.find("memcpy");
    EXPECT_EQ(m.parameter_sets(g, *g.find("numa0"), *g.find("numa1"), {}).size(), 2u);
    const auto single = m.parameter_sets(g, *g.find("numa1"), *g.find("numa0"), {});
    ASSERT_EQ(single.size(), 1u);
    EXPECT_EQ(single.front().at("threads"), "single");
}

TEST(WorkerCounts, PowersOfTwoThenAllCores) {
    using V = std::vector<unsigned>;
    EXPECT_EQ(worker_counts(1, 0), V{1});
    EXPECT_EQ(worker_counts(2, 0), (V{1, 2}));
    EXPECT_EQ(worker_counts(32, 0), (V{1, 2, 4, 8, 16, 32}));
    EXPECT_EQ(worker_counts(12, 0), (V{1, 2, 4, 8, 12}));
    EXPECT_EQ(worker_counts(32, 6), (V{1, 2, 4, 6}));
    EXPECT_EQ(worker_counts(0, 0), V{1});
}
