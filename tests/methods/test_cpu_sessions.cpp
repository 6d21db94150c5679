// The CPU methods on this machine's first NUMA node (same-node pair), driven
// as the engine drives them: warm-up, then reset -> measure -> verify per sample.
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "cpu_session_test.hpp"

using namespace hwcomm;
using hwcomm::test::CpuSessionTest;
using hwcomm::test::sample_and_verify;

TEST_F(CpuSessionTest, ReadSweepsWorkerCountsAndVerifiesOddSizes) {
    auto s = prepare("cpu-read");
    EXPECT_EQ(s->max_bytes(), 1u << 20);
    const auto variants = s->variants();
    ASSERT_FALSE(variants.empty());
    EXPECT_EQ(variants.front(), "1");
    EXPECT_EQ(variants.back(), std::to_string(cores_));
    for (const auto& v : variants)
        for (std::size_t bytes : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{4095}, std::size_t{1} << 20})
            EXPECT_EQ(sample_and_verify(*s, bytes, v), "") << bytes << " bytes, " << v << " workers";
    const auto ctx = s->context();
    EXPECT_TRUE(ctx.at("placement_verified").get<bool>());
    EXPECT_EQ(ctx.at("src_buffer").at("requested_node").get<int>(), node_);
    EXPECT_FALSE(ctx.contains("binding_failure")) << ctx.dump();
}

TEST_F(CpuSessionTest, WriteAndMemcpyVerify) {
    auto w = prepare("cpu-write");
    for (const auto& v : w->variants())
        for (std::size_t bytes : {std::size_t{1}, std::size_t{12345}, std::size_t{1} << 20})
            EXPECT_EQ(sample_and_verify(*w, bytes, v), "") << bytes << " bytes, " << v << " workers";
    for (const char* threads : {"single", "multi"}) {
        auto m = prepare("memcpy", {{"threads", threads}});
        EXPECT_EQ(m->variants(), std::vector<std::string>{""});
        EXPECT_EQ(sample_and_verify(*m, 100003, ""), "") << threads;
        EXPECT_EQ(sample_and_verify(*m, 1, ""), "") << threads;
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

// The context names, per worker, the core and the PU it is bound to: one
// worker per physical core, no two on one core.
TEST_F(CpuSessionTest, ContextRecordsOneWorkerPerCore) {
    for (const char* method : {"cpu-read", "cpu-write", "memcpy"}) {
        auto s = prepare(method, method == std::string("memcpy") ? ParamSet{{"threads", "multi"}} : ParamSet{});
        const auto binding = s->context().at("binding");
        EXPECT_EQ(binding.at("node").get<int>(), node_) << method;
        EXPECT_FALSE(binding.at("smt").get<bool>());
        const auto& workers = binding.at("workers");
        ASSERT_EQ(workers.size(), cores_) << method;
        std::set<int> cores, pus;
        for (const auto& w : workers) {
            cores.insert(w.at("core").get<int>());
            pus.insert(w.at("pu").get<int>());
        }
        EXPECT_EQ(cores.size(), cores_) << method;
        EXPECT_EQ(pus.size(), cores_) << method;
    }
}
