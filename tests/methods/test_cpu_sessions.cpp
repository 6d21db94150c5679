// The CPU methods on this machine's first NUMA node (same-node pair).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/register.hpp"
#include "numa_graphs.hpp"
#include "platform/hwloc_topology.hpp"

using namespace hwcomm;

namespace {

class CpuSessionTest : public ::testing::Test {
protected:
    void SetUp() override {
        HwlocTopology topo;
        node_ = topo.numa_os_indexes().front();
        cores_ = topo.cores_of_numa(node_);
        graph_.add_vertex(test::numa_vertex(node_, cores_));
        register_cpu_methods(registry_);
    }
    std::unique_ptr<TransferSession> prepare(const std::string& method, ParamSet params = {}, std::size_t bytes = 1 << 20) {
        const Vertex& v = *graph_.find("numa" + std::to_string(node_));
        return registry_.find(method)->prepare(graph_, v, v, params, bytes, MethodOptions{});
    }
    int node_ = 0;
    unsigned cores_ = 0;
    Graph graph_;
    Registry registry_;
};

}  // namespace

TEST_F(CpuSessionTest, ReadSweepsWorkerCountsAndVerifiesOddSizes) {
    auto s = prepare("cpu-read");
    EXPECT_EQ(s->max_bytes(), 1u << 20);
    const auto variants = s->variants();
    ASSERT_FALSE(variants.empty());
    EXPECT_EQ(variants.front(), "1");
    EXPECT_EQ(variants.back(), std::to_string(cores_));
    for (const auto& v : variants)
        for (std::size_t bytes : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{4095}, std::size_t{1} << 20})
            EXPECT_EQ(s->verify(bytes, v), "") << bytes << " bytes, " << v << " workers";
    const auto ctx = s->context();
    EXPECT_TRUE(ctx.at("placement_verified").get<bool>());
    EXPECT_EQ(ctx.at("src_buffer").at("requested_node").get<int>(), node_);
}

TEST_F(CpuSessionTest, WriteAndMemcpyVerify) {
    auto w = prepare("cpu-write");
    for (const auto& v : w->variants()) EXPECT_EQ(w->verify(12345, v), "");
    for (const char* threads : {"single", "multi"}) {
        auto m = prepare("memcpy", {{"threads", threads}});
        EXPECT_EQ(m->variants(), std::vector<std::string>{""});
        EXPECT_EQ(m->verify(100003, ""), "") << threads;
        EXPECT_EQ(m->verify(1, ""), "") << threads;
        EXPECT_TRUE(m->context().at("placement_verified").get<bool>());
    }
}

TEST_F(CpuSessionTest, SmallTransfersAreBatched) {
    auto s = prepare("cpu-read");
    s->warmup(64, "1");
    const Sample sample = s->measure(64, "1");
    // Reading 64 bytes takes nanoseconds: the warm-up calibrates a batch.
    EXPECT_GT(sample.repetitions, 10u);
    EXPECT_DOUBLE_EQ(sample.bytes_per_rep, 64.0);
    EXPECT_GT(sample.seconds, 0.0);
}

TEST_F(CpuSessionTest, AbsentNodeFailsToPrepare) {
    Graph g;
    g.add_vertex(test::numa_vertex(4000, 2));
    const Vertex& v = *g.find("numa4000");
    EXPECT_THROW(registry_.find("cpu-read")->prepare(g, v, v, {}, 4096, MethodOptions{}), MeasurementError);
}
