#include <gtest/gtest.h>

#include "discover/discover.hpp"
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
    ASSERT_EQ(r.all().size(), 8u);
    for (const char* m : {"cpu-read", "cpu-write", "memcpy", "cpu-copy", "cpu-triad", "cpu-latency", "cpu-loaded-latency",
                          "cpu-bandwidth-mix"})
        EXPECT_NE(r.find(m), nullptr) << m;
}

TEST(CpuMethods, TwoSocketFixtureHasAllFourOrderedPairs) {
    const Graph g = test::numa_graph_from_xml(HWCOMM_FIXTURES "/hwloc/24em64t-2n6c2t-pci.xml");
    ASSERT_EQ(g.of_kind(VertexKind::NumaNode).size(), 2u);
    const Registry r = cpu_registry();
    for (const auto& m : r.all()) EXPECT_EQ(applicable_pairs(g, *m), 4u) << m->name();
    // 8 methods x 4 pairs; memcpy (single, multi), cpu-write, cpu-copy and
    // cpu-triad (stores plain, nt) twice: 48 records, same-node pairs included.
    const auto plan = build_plan(g, r, Filters{}, MethodOptions{});
    EXPECT_EQ(plan.size(), 48u);
    EXPECT_EQ(plan.front().key, "cpu-read|numa0|numa0|");
    std::size_t matrix = 0, latency = 0;
    for (const auto& p : plan) {
        matrix += p.method->name() == "cpu-bandwidth-mix";
        latency += p.method->name() == "cpu-latency";
    }
    EXPECT_EQ(matrix, 4u);   // the bandwidth matrix: every (cores' node, memory's node) cell
    EXPECT_EQ(latency, 4u);  // the idle latency matrix
}

// POWER9 AC922: two sockets, each with two GPUs whose memory hwloc shows as
// NUMA nodes (subtype GPUMemory, no cores of their own): the CPU matrix has
// rows for the two sockets only, columns for all six nodes.
TEST(CpuMethods, GpuMemoryNodesOfAnAc922AreMemoryColumnsNeverCoreRows) {
    const Graph g = discover_machine({.input_xml = HWCOMM_FIXTURES "/hwloc/ac922-gpumem.xml", .use_nvml = false});
    ASSERT_EQ(g.of_kind(VertexKind::NumaNode).size(), 6u);
    const Registry r = cpu_registry();
    for (const char* m : {"cpu-latency", "cpu-loaded-latency", "cpu-bandwidth-mix", "cpu-write", "cpu-copy"})
        EXPECT_EQ(applicable_pairs(g, *r.find(m)), 2u * 6u) << m;
    EXPECT_EQ(applicable_pairs(g, *r.find("cpu-read")), 6u * 2u);  // cpu-read's cores are on its destination
    const auto gpu_mem = r.find("cpu-latency")->applicable(g, *g.find("numa2"), *g.find("numa0"));
    EXPECT_FALSE(gpu_mem.ok);
    EXPECT_NE(gpu_mem.reason.find("no CPU cores"), std::string::npos) << gpu_mem.reason;
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
    // The latency and mix methods chase or stream from the source's cores into the destination's memory.
    for (const char* m : {"cpu-latency", "cpu-loaded-latency", "cpu-bandwidth-mix", "cpu-copy", "cpu-triad"}) {
        EXPECT_TRUE(r.find(m)->applicable(g, cpu, mem).ok) << m;
        EXPECT_FALSE(r.find(m)->applicable(g, mem, cpu).ok) << m;
    }
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
