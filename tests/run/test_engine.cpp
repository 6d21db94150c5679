#include <gtest/gtest.h>

#include <set>

#include "fake_method.hpp"
#include "run/device_state.hpp"
#include "run/cost_model.hpp"
#include "run/engine.hpp"
#include "run/plan_estimate.hpp"
#include "io/results_json.hpp"
#include "io/results_meta.hpp"
#include "support/test_catalog.hpp"

using namespace hwcomm;

namespace {

RunOptions fast_options() {
    RunOptions o;
    o.sizes = {1024, 4096, 1 << 20};
    o.stopping.min_samples = 5;
    return o;
}

std::set<std::string> keys(const ResultsFile& f) {
    std::set<std::string> k;
    for (const auto& r : f.records) k.insert(r.key);
    return k;
}

}  // namespace

TEST(Engine, PlansApplicablePairsTimesParameterSets) {
    Registry reg(test::catalog_with({"fake"}));
    reg.add(std::make_unique<test::FakeMethod>("fake"));
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    // 6 "up" ordered pairs of 3 nodes (including same-node) x 2 parameter sets.
    EXPECT_EQ(plan.size(), 12u);
    EXPECT_EQ(plan.front().key, "fake|numa0|numa0|mode=a");
}

TEST(Engine, ReportsTheBestVariantAndBytesOverMedianTime) {
    test::FakeMethod m("fake");
    const Graph g = test::three_nodes();
    PlannedRecord p{&m, g.find("numa0"), g.find("numa1"), {{"mode", "a"}}, "fake|numa0|numa1|mode=a"};
    const Record r = *measure_record(g, p, fast_options());
    EXPECT_EQ(r.status, "ok");
    ASSERT_EQ(r.points.size(), 3u);
    const Point& pt = r.points[2];
    EXPECT_EQ(pt.bytes, 1u << 20);
    EXPECT_EQ(pt.status, "ok");
    EXPECT_TRUE(pt.verified);
    EXPECT_EQ(pt.stop_reason, "converged");
    EXPECT_EQ(pt.stats.n, 5u);
    EXPECT_EQ(pt.best_variant, "2");
    ASSERT_EQ(pt.variants.size(), 2u);
    EXPECT_NEAR(pt.variants[0].bandwidth_gbps, 1.0, 1e-12);
    EXPECT_NEAR(pt.bandwidth_gbps, 2.0, 1e-12);
    EXPECT_NEAR(pt.peak_bandwidth_gbps, 2.0, 1e-12);
    // Per-transfer seconds: the sample's time divided by its 4 repetitions.
    EXPECT_DOUBLE_EQ(pt.samples_s.front(), (1 << 20) / 2e9);
    EXPECT_DOUBLE_EQ(pt.extras.at("skew_s"), 1e-6);
    EXPECT_EQ(r.context.at("fake"), true);
}

TEST(Engine, MaxVariantsKeepsFirstAndLast) {
    EXPECT_EQ(pick_variants({"1", "2", "4", "8", "16", "32"}, 3), (std::vector<std::string>{"1", "4", "32"}));
    EXPECT_EQ(pick_variants({"1", "2"}, 3), (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(pick_variants({"1", "2", "4"}, 0), (std::vector<std::string>{"1", "2", "4"}));
    EXPECT_EQ(pick_variants({"1", "2", "4"}, 1), (std::vector<std::string>{"4"}));
}

TEST(Engine, ErrorsAreRecordedAndTheRunGoesOn) {
    Registry reg(test::catalog_with({"broken", "flaky"}));
    reg.add(std::make_unique<test::FakeMethod>("broken", test::FakeBehaviour{.fail_prepare = true}));
    reg.add(std::make_unique<test::FakeMethod>("flaky", test::FakeBehaviour{.fail_verify_at = 4096, .throw_measure_at = 1024}));
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    ResultsFile results;
    std::size_t saved = 0;
    EngineHooks hooks;
    hooks.on_record = [&](const Record&) { ++saved; };
    EXPECT_EQ(run_plan(g, plan, fast_options(), results, hooks), 24u);
    EXPECT_EQ(saved, 24u);
    const Record* broken = results.find("broken|numa0|numa1|mode=a");
    ASSERT_NE(broken, nullptr);
    EXPECT_EQ(broken->status, "error");
    EXPECT_EQ(broken->error, "prepare: cannot allocate pinned memory");
    EXPECT_TRUE(broken->points.empty());
    const Record* flaky = results.find("flaky|numa0|numa0|mode=b");
    ASSERT_NE(flaky, nullptr);
    EXPECT_EQ(flaky->status, "error");
    ASSERT_EQ(flaky->points.size(), 3u);
    EXPECT_EQ(flaky->points[0].status, "error");
    EXPECT_EQ(flaky->points[0].error, "variant 1: device fell off the bus");
    EXPECT_EQ(flaky->points[0].stats.n, 0u);
    EXPECT_EQ(flaky->points[1].status, "error");
    EXPECT_FALSE(flaky->points[1].verified);
    EXPECT_EQ(flaky->points[1].error, "variant 1: verification failed after sample 1: byte 3 differs");
    EXPECT_EQ(flaky->error_type, "hwcomm::MeasurementError");  // the first failing point: 1024 threw
    EXPECT_EQ(flaky->points[2].status, "ok");
    EXPECT_TRUE(flaky->points[2].verified);
}

TEST(Engine, SizesAboveTheSessionMaximumAreSkippedAndNoted) {
    test::FakeMethod m("fake", test::FakeBehaviour{.session_max = 4096});
    const Graph g = test::three_nodes();
    PlannedRecord p{&m, g.find("numa0"), g.find("numa0"), {}, "fake|numa0|numa0|"};
    const Record r = *measure_record(g, p, fast_options());
    ASSERT_EQ(r.points.size(), 2u);
    EXPECT_EQ(r.context.at("sizes_skipped_above_session_max"), nlohmann::json::array({1 << 20}));
}

// gpumem-occupancy and -stride measure 1 GiB only; a --quick run stops at 64 MiB.
TEST(Engine, ARecordWithNoSizeOfTheRunIsSkippedWithTheReasonAndPreparesNothing) {
    test::FakeMethod m("fake", test::FakeBehaviour{.sizes = {.min_bytes = 1u << 30, .max_bytes = 1u << 30}});
    const Graph g = test::three_nodes();
    PlannedRecord p{&m, g.find("numa0"), g.find("numa0"), {}, "fake|numa0|numa0|"};
    const Record r = *measure_record(g, p, fast_options());
    EXPECT_EQ(r.status, "skipped");
    EXPECT_TRUE(r.points.empty());
    EXPECT_EQ(r.error, "no size of this run applies: fake measures 1 GiB only, this run 1 KiB-1 MiB "
                       "(--min-size/--max-size to include it)");
    EXPECT_EQ(m.prepared, 0);
    EXPECT_EQ(estimate_record(p, fast_options(), builtin_cost_model()), 0.0);  // the plan expects no time for it
    // One size of the run in its range: measured as before.
    RunOptions wider = fast_options();
    wider.sizes.push_back(1u << 30);
    const Record measured = *measure_record(g, p, wider);
    EXPECT_EQ(measured.status, "ok");
    ASSERT_EQ(measured.points.size(), 1u);
    EXPECT_EQ(measured.points[0].bytes, 1u << 30);
    EXPECT_GT(estimate_record(p, wider, builtin_cost_model()), 0.0);
}

TEST(Engine, ResumeAfterInterruptionGivesTheSameRecords) {
    Registry reg(test::catalog_with({"fake"}));
    reg.add(std::make_unique<test::FakeMethod>("fake"));
    const Graph g = test::three_nodes();
    const auto plan = build_plan(g, reg, Filters{}, {});
    const RunOptions o = fast_options();

    ResultsFile full;
    run_plan(g, plan, o, full, {});

    ResultsFile partial;
    EngineHooks stop_early;
    stop_early.stop_after_records = 5;  // the "kill"
    EXPECT_EQ(run_plan(g, plan, o, partial, stop_early), 5u);
    ASSERT_EQ(partial.records.size(), 5u);
    // Through JSON, as --resume reads it back.
    ResultsFile resumed = results_from_json(results_to_json(partial));
    EXPECT_EQ(run_plan(g, plan, o, resumed, {}), plan.size() - 5);
    EXPECT_EQ(keys(resumed), keys(full));
    EXPECT_EQ(resumed.records.size(), full.records.size());
    // Nothing left: a second resume measures nothing.
    EXPECT_EQ(run_plan(g, plan, o, resumed, {}), 0u);
}

TEST(Engine, MethodMetaIsLiftedIntoTheFileMeta) {
    ResultsFile f;
    Record r;
    r.context = {{"cuda", {{"driver_version", 13000}}}};
    absorb_record_meta(f, r);
    EXPECT_EQ(f.meta.at("cuda").at("driver_version"), 13000);
}

TEST(Engine, DeviceStateOfGpuEndpointsIsRecordedBeforeAndAfter) {
    test::FakeMethod m("fake");
    Graph g = test::three_nodes();
    g.add_vertex({.id = "gpu0", .kind = VertexKind::Gpu});
    PlannedRecord p{&m, g.find("gpu0"), g.find("numa1"), {{"mode", "a"}}, "fake|gpu0|numa1|mode=a"};
    EngineHooks hooks;
    int calls = 0;
    hooks.device_state = [&](const Vertex& v) -> nlohmann::json {
        ++calls;
        return {{"vertex", v.id}, {"call", calls}};
    };
    const Record r = *measure_record(g, p, fast_options(), nullptr, &hooks);
    ASSERT_EQ(r.status, "ok");
    EXPECT_EQ(calls, 2);  // the GPU endpoint only, once before and once after
    const auto& state = r.context.at("device_state");
    EXPECT_EQ(state.size(), 1u);
    EXPECT_EQ(state.at("gpu0").at("before").at("call"), 1);
    EXPECT_EQ(state.at("gpu0").at("after").at("call"), 2);
}

TEST(Engine, CudaRuntimeVersionsOfARecordBecomeFileMeta) {
    ResultsFile f;
    Record r;
    r.context = {{"runtime", {{"cuda_runtime_version", "13.0"}}}};
    absorb_record_meta(f, r);
    EXPECT_EQ(f.meta.at("cuda").at("cuda_runtime_version"), "13.0");
}

TEST(DeviceStateProbe, ReadsClocksAndPcieStateOfTheMatchingGpu) {
    // Replayed NVML of the 2x H200 machine: GPU 0 at 00:06.0 was idling at
    // 345 MHz SM, 3201 MHz memory, PCIe Gen5 x16 when recorded.
    DeviceStateProbe probe(nvml::open_nvml_replay(std::string(HWCOMM_FIXTURES) + "/nvml/h200x2.json"));
    Vertex by_index{.id = "gpu0", .kind = VertexKind::Gpu};
    by_index.gpu = GpuInfo{.nvml_index = 0};
    const auto s = probe.snapshot(by_index);
    ASSERT_FALSE(s.is_null());
    EXPECT_EQ(s.at("sm_clock_mhz"), 345);
    EXPECT_EQ(s.at("memory_clock_mhz"), 3201);
    EXPECT_EQ(s.at("pcie_generation"), 5);
    EXPECT_EQ(s.at("pcie_width"), 16);

    Vertex by_pci{.id = "gpu1", .kind = VertexKind::Gpu};
    by_pci.pci = PciAddress::parse("0000:00:07.0");
    EXPECT_EQ(probe.snapshot(by_pci).at("nvml_index"), 1);

    Vertex unknown{.id = "gpu9", .kind = VertexKind::Gpu};
    unknown.pci = PciAddress::parse("0000:99:00.0");
    EXPECT_TRUE(probe.snapshot(unknown).is_null());
    EXPECT_TRUE(probe.snapshot(Vertex{.id = "numa0", .kind = VertexKind::NumaNode}).is_null());
}
