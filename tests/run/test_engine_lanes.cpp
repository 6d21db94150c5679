// The engine's error policy, stop hook, per-sample reset/verify and lanes.
#include <gtest/gtest.h>

#include "fake_method.hpp"
#include "methods/group_characterizer.hpp"
#include "run/engine.hpp"
#include "support/test_catalog.hpp"

using namespace hwcomm;

namespace {

RunOptions fast_options() {
    RunOptions o;
    o.sizes = {1024, 4096};
    o.stopping.min_samples = 5;
    return o;
}

// Two lanes of 1 and 2 GB/s; counts resets and checks that each verify
// follows a reset and a measure.
class TwoLaneSession : public TransferSession {
public:
    void warmup(std::size_t, const std::string&) override {}
    void reset(std::size_t, const std::string&) override {
        ++resets;
        measured_since_reset = false;
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        measured_since_reset = true;
        Sample s;
        s.repetitions = 2;
        const double b = static_cast<double>(bytes);
        s.lanes = {{"numa0->numa1", 2 * b / 1e9, b}, {"numa1->numa0", 2 * b / 2e9, b}};
        s.seconds = 2 * b / 1e9;  // the window: the slower lane
        s.bytes_per_rep = 2 * b;
        return s;
    }
    std::string verify(std::size_t, const std::string&) override {
        ++verifies;
        return measured_since_reset && resets == verifies ? "" : "verify without a fresh reset and batch";
    }
    std::vector<LaneSpec> lanes() const override {
        return {{"numa0->numa1", "fake", "numa0", "numa1", {}, "measured"},
                {"numa1->numa0", "fake", "numa1", "numa0", {}, "measured"}};
    }
    std::size_t max_bytes() const override { return 1 << 20; }
    int resets = 0, verifies = 0;
    bool measured_since_reset = false;
};

class TwoLaneMethod : public GroupCharacterizer {
public:
    std::string name() const override { return "both-ways"; }
    std::string description() const override { return "fake two-lane method"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<EndpointSet> endpoint_sets(const Graph& g) const override {
        return {{"numa0+numa1", "numa1+numa0", {g.find("numa0"), g.find("numa1")}, "both ways", Applicability::yes()},
                {"numa2", "numa2", {g.find("numa2")}, "", Applicability::no("one node")}};
    }
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet&, const MethodOptions&) const override {
        return {{}};
    }
    std::unique_ptr<TransferSession> prepare_set(const Graph&, const EndpointSet&, const ParamSet&, std::size_t,
                                                 const MethodOptions&) const override {
        return std::make_unique<TwoLaneSession>();
    }
};

}  // namespace

TEST(EngineErrors, AnyExceptionFromPrepareIsOneErrorRecordAndTheRunGoesOn) {
    Registry reg(test::catalog_with({"throws", "fine"}));
    reg.add(std::make_unique<test::FakeMethod>("throws", test::FakeBehaviour{.prepare_throws_std = true}));
    reg.add(std::make_unique<test::FakeMethod>("fine"));
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    ResultsFile results;
    EXPECT_EQ(run_plan(g, plan, fast_options(), results, {}), 24u);
    const Record* bad = results.find("throws|numa0|numa0|mode=a");
    ASSERT_NE(bad, nullptr);
    EXPECT_EQ(bad->status, "error");
    EXPECT_EQ(bad->error, "prepare: hwloc: no such node");
    EXPECT_EQ(bad->error_type, "std::runtime_error");
    std::size_t ok = 0;
    for (const auto& r : results.records)
        if (r.method == "fine" && r.status == "ok" && r.points.size() == 2) ++ok;
    EXPECT_EQ(ok, 12u);  // every record after the failures was measured
}

TEST(EngineStop, AStopRequestEndsTheRunAtASampleBoundaryAndDropsTheCutRecord) {
    Registry reg(test::catalog_with({"fake"}));
    reg.add(std::make_unique<test::FakeMethod>("fake"));
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    ResultsFile results;
    EngineHooks hooks;
    int asked = 0;
    hooks.should_stop = [&asked] { return ++asked > 30; };  // mid-record, after a few samples
    const std::size_t measured = run_plan(g, plan, fast_options(), results, hooks);
    EXPECT_EQ(measured, results.records.size());
    EXPECT_LT(measured, plan.size());
    for (const auto& r : results.records) EXPECT_EQ(r.points.size(), 2u) << r.key;  // only whole records kept
}

TEST(EngineLanes, GroupRecordsCarryTheirLanesAndPerLaneBandwidth) {
    Registry reg(test::catalog_with({"both-ways"}));
    reg.add(std::make_unique<TwoLaneMethod>());
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    ASSERT_EQ(plan.size(), 1u);  // the inapplicable set is left out
    EXPECT_EQ(plan[0].key, "both-ways|numa0+numa1|numa1+numa0|");
    ResultsFile results;
    run_plan(g, plan, fast_options(), results, {});
    ASSERT_EQ(results.records.size(), 1u);
    const Record& r = results.records[0];
    EXPECT_EQ(r.status, "ok") << r.error;
    EXPECT_EQ(r.src, "numa0+numa1");
    EXPECT_EQ(r.context.at("endpoint_set"), "both ways");
    ASSERT_EQ(r.lanes.size(), 2u);
    EXPECT_EQ(r.lanes[1].src, "numa1");
    ASSERT_EQ(r.points.size(), 2u);
    const Point& p = r.points[1];
    EXPECT_TRUE(p.verified);  // every verify followed its own reset and batch
    ASSERT_EQ(p.lanes.size(), 2u);
    EXPECT_NEAR(p.lanes[0].bandwidth_gbps, 1.0, 1e-9);
    EXPECT_NEAR(p.lanes[1].bandwidth_gbps, 2.0, 1e-9);
    EXPECT_NEAR(p.bandwidth_gbps, 2.0, 1e-9);  // 2 x 4096 bytes over the 4096-byte window of the slow lane
    EXPECT_EQ(p.lanes[0].samples_s.size(), p.samples_s.size());
}

TEST(EngineLanes, APairRecordHasItsOwnPairAsTheOneLane) {
    test::FakeMethod m("fake");
    const Graph g = test::three_nodes();
    PlannedRecord p{&m, g.find("numa0"), g.find("numa1"), {{"mode", "a"}}, "fake|numa0|numa1|mode=a"};
    const Record r = *measure_record(g, p, fast_options());
    ASSERT_EQ(r.lanes.size(), 1u);
    EXPECT_EQ(r.lanes[0].label, "numa0->numa1");
    EXPECT_EQ(r.lanes[0].method, "fake");
    EXPECT_EQ(r.lanes[0].params.at("mode"), "a");
}
