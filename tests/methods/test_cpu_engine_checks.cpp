// Through the engine (reset -> measure -> verify per sample): a record measured
// with a broken memcpy session has every point marked not verified, with a
// "verification failed" error; an honest session's points all verify.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

#include "broken_memcpy.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "numa_graphs.hpp"
#include "platform/hwloc_topology.hpp"
#include "run/engine.hpp"

using namespace hwcomm;

namespace {

template <class Session>
class MemcpyWith : public NumaPairMethod {
public:
    std::string name() const override { return "memcpy-under-test"; }
    std::string description() const override { return "memcpy with a replaceable copy"; }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return std::make_unique<Session>(numa_index_of(src), numa_index_of(dst), max_bytes, true, options);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

template <class Session>
Record measure_with() {
    const HwlocTopology topo;
    const int node = topo.numa_os_indexes().front();
    Graph g;
    g.add_vertex(test::numa_vertex(node, topo.cores_of_numa(node)));
    const Vertex* v = g.find("numa" + std::to_string(node));
    MemcpyWith<Session> method;
    RunOptions o;
    o.sizes = {2, 4096, 100003, 1 << 20};
    o.stopping.min_samples = 3;
    o.stopping.time_budget_s = 0.01;
    const PlannedRecord planned{&method, v, v, {}, "memcpy-under-test"};
    std::optional<Record> r = measure_record(g, planned, o);
    if (!r) throw std::runtime_error("the engine stopped without a should_stop hook");
    return *r;
}

}  // namespace

TEST(CpuEngineChecks, HonestMemcpyVerifiesEveryPoint) {
    const Record r = measure_with<MemcpySession>();
    ASSERT_EQ(r.points.size(), 4u);
    for (const Point& p : r.points) {
        EXPECT_EQ(p.status, "ok") << p.bytes << ": " << p.error;
        EXPECT_TRUE(p.verified) << p.bytes;
    }
}

TEST(CpuEngineChecks, CopyOfNothingIsNotVerified) {
    const Record r = measure_with<test::CopiesNothing>();
    ASSERT_EQ(r.points.size(), 4u);
    for (const Point& p : r.points) {
        EXPECT_FALSE(p.verified) << p.bytes;
        EXPECT_EQ(p.status, "error") << p.bytes;
        EXPECT_NE(p.error.find("verification failed"), std::string::npos) << p.error;
    }
}

TEST(CpuEngineChecks, CopyOfTheFirstHalfIsNotVerified) {
    const Record r = measure_with<test::CopiesFirstHalf>();
    ASSERT_EQ(r.points.size(), 4u);
    for (const Point& p : r.points) {
        EXPECT_FALSE(p.verified) << p.bytes;
        EXPECT_NE(p.error.find("verification failed"), std::string::npos) << p.error;
        EXPECT_NE(p.error.find("destination byte " + std::to_string(p.bytes / 2) + " "), std::string::npos) << p.error;
    }
}
