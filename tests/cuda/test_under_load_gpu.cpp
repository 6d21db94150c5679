// GPU tests (label "gpu") of transfers under load and the pattern C: a load on
// the same link lowers a pinned H2D copy and is recorded as U; the default
// scenarios measure a route alone and loaded; in-flight points carry what they
// claim; priority on copy kernels and, when asked, on the copy engines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "analyze/load_table.hpp"
#include "catalog/method_catalog.hpp"
#include "gpu_test_support.hpp"
#include "methods/cuda/register.hpp"
#include "methods/group_characterizer.hpp"
#include "run/engine.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

RunOptions options_at(std::vector<std::uint64_t> sizes) {
    RunOptions o;
    o.sizes = std::move(sizes);
    o.stopping.min_samples = 3;
    o.stopping.time_budget_s = 0.1;
    return o;
}

const LanePoint* lane(const Point& p, const std::string& label) {
    for (const LanePoint& l : p.lanes)
        if (l.label == label) return &l;
    return nullptr;
}

Registry cuda_methods() {
    Registry reg;
    register_cuda_methods(reg);
    return reg;
}

}  // namespace

TEST(UnderLoadGpu, ALoadOnTheSameLinkLowersPinnedH2dAndIsRecordedAsU) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const Characterizer& h2d = *reg.find("memcpy-h2d");
    const ParamSet params{{"host_mem", "pinned"}, {"numa", "0"}};
    PlannedRecord p{&h2d, g.find("numa0"), g.find("gpu0"), params, "memcpy-h2d|numa0|gpu0|pinned"};
    const std::uint64_t n = 256u << 20;
    RunOptions o = options_at({n});
    const Record alone = *measure_record(g, p, o);
    ASSERT_EQ(alone.status, "ok") << alone.error;
    o.method.under_load = {parse_load_spec("memcpy-h2d numa0->gpu0")};
    o.method.load_routes = resolve_load_specs(g, o.method.under_load);
    const Record loaded = *measure_record(g, p, o);
    ASSERT_EQ(loaded.status, "ok") << loaded.error;
    // Alone again after: a first copy in a fresh process read 35 GB/s on one
    // H100 (afc1913) where the link moves 55, and a disturbance only slows a
    // copy, so the faster of the two is the link's rate alone.
    o.method.under_load.clear();
    o.method.load_routes.clear();
    const Record alone_after = *measure_record(g, p, o);
    ASSERT_EQ(alone_after.status, "ok") << alone_after.error;

    ASSERT_EQ(loaded.lanes.size(), 2u);
    EXPECT_EQ(loaded.lanes[1].role, "load");
    EXPECT_EQ(loaded.lanes[1].label, "load:numa0->gpu0");
    const Point& a = alone.points.at(0).bandwidth_gbps >= alone_after.points.at(0).bandwidth_gbps
                         ? alone.points.at(0)
                         : alone_after.points.at(0);
    const Point& l = loaded.points.at(0);
    // Two copies share one PCIe link: the measured one gets well under its alone rate.
    EXPECT_LT(l.bandwidth_gbps, 0.8 * a.bandwidth_gbps) << l.bandwidth_gbps << " vs " << a.bandwidth_gbps;
    const LanePoint* u = lane(l, "load:numa0->gpu0");
    ASSERT_NE(u, nullptr);
    EXPECT_GT(u->bandwidth_gbps, 0.05 * a.bandwidth_gbps);  // the load moved data at the link's order of rate
    // load_covered is not asserted: whether the copy engine interleaves the two
    // streams or serves the load first is what the record shows, not a given.
    EXPECT_GT(l.extras.at("load_gbps"), 0.05 * a.bandwidth_gbps) << "load_covered " << l.extras.at("load_covered");
    // Together they move no more than the link does alone (plus noise).
    EXPECT_LT(l.bandwidth_gbps + l.extras.at("load_gbps"), 1.15 * a.bandwidth_gbps);
}

TEST(UnderLoadGpu, DefaultScenariosMeasureEachRouteAloneAndLoaded) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const auto* m = dynamic_cast<const GroupCharacterizer*>(reg.find("under-load"));
    ASSERT_NE(m, nullptr);
    const auto sets = m->endpoint_sets(g);
    // At least numa0's host side: numa0->gpu0 alone and with numa0->gpu1 loading it, and the reverse.
    ASSERT_GE(sets.size(), 4u);
    EXPECT_EQ(sets[0].note, "alone");
    EXPECT_EQ(sets[1].vertices.size(), 4u);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}}) {
        const auto params = m->set_parameter_sets(g, sets[i], {});
        ASSERT_EQ(params.size(), 1u);
        PlannedRecord p{m, nullptr, nullptr, params[0], "under-load|" + std::to_string(i), sets[i].src_id,
                        sets[i].dst_id, sets[i]};
        const Record r = *measure_record(g, p, options_at({256u << 20}));
        ASSERT_EQ(r.status, "ok") << r.error;
        EXPECT_EQ(r.lanes.size(), i + 1);
        if (i == 1) {
            const Point& pt = r.points.at(0);
            EXPECT_GT(pt.extras.at("load_gbps"), 0.05 * pt.bandwidth_gbps);
            EXPECT_EQ(pt.lanes.size(), 2u);
        }
    }
}

TEST(PatternCGpu, InFlightCountsEveryTransfer) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const Characterizer& in_flight = *reg.find("in-flight");
    PlannedRecord p{&in_flight, g.find("numa0"), g.find("gpu0"), {}, "in-flight|numa0|gpu0|"};
    const Record r = *measure_record(g, p, options_at({4u << 20}));
    ASSERT_EQ(r.status, "ok") << r.error;
    ASSERT_EQ(r.points.size(), 8u);  // in_flight 1, 2, 4, 8 x streams one, several
    double single = 0;
    for (const Point& pt : r.points)
        if (pt.axes.at("in_flight").get<int>() == 1) single = std::max(single, pt.bandwidth_gbps);
    ASSERT_GT(single, 0.0);
    for (const Point& pt : r.points) {
        const int n = pt.axes.at("in_flight").get<int>();
        EXPECT_EQ(pt.bytes_per_rep, static_cast<double>(n) * (4u << 20)) << n;
        if (pt.axes.at("streams").get<std::string>() == "several" && n > 1) {
            EXPECT_EQ(pt.lanes.size(), static_cast<std::size_t>(n));
        }
        // n transfers on one route move n times the bytes in about n times the time: the
        // aggregate stays near the single transfer's rate (half of it leaves room for noise).
        EXPECT_GT(pt.bandwidth_gbps, 0.5 * single) << pt.axes.at("in_flight") << " " << pt.axes.at("streams");
    }
}

namespace {

struct PriorityTimes {
    std::map<std::string, double> small_s, large_gbps;  // by level: 4 KiB completion time, 64 MiB GB/s
    std::map<std::string, analyze::PriorityRow> rows;    // by level: analyze's row (waits split from the rest)
};

PriorityTimes measure_priority(const Graph& g, const Characterizer& priority, const std::string& engine,
                               const std::string& src = "numa0", const std::string& dst = "gpu0",
                               std::size_t min_samples = 3) {
    PlannedRecord q{&priority, g.find(src), g.find(dst), {{"engine", engine}}, "priority|" + src + "|" + dst + "|" + engine};
    RunOptions o = options_at({4096, 64u << 20});
    o.stopping.min_samples = min_samples;
    const Record pr = *measure_record(g, q, o);
    EXPECT_EQ(pr.status, "ok") << pr.error;
    // priority spaces its own sizes, every 2nd octave between the run's 4 KiB and 64 MiB:
    // 8 sizes x 3 priorities.
    EXPECT_EQ(pr.points.size(), 24u);
    EXPECT_EQ(pr.context.at("priority").at("engine").get<std::string>(), engine);
    EXPECT_EQ(pr.context.at("headline").at("metric").get<std::string>(), "completion time");
    PriorityTimes t;
    for (const Point& pt : pr.points) {
        EXPECT_TRUE(pt.verified) << engine << " " << pt.bytes;
        const std::string level = pt.axes.at("priority").get<std::string>();
        if (level != "alone") {
            EXPECT_EQ(pt.extras.count("load_covered"), 1u);  // the load ran beside the transfer
        }
        if (pt.bytes == 4096) t.small_s[level] = pt.stats.median;
        if (pt.bytes == (64u << 20)) t.large_gbps[level] = pt.bandwidth_gbps;
    }
    for (const auto& table : analyze::priority_tables({pr}, builtin_catalog()))
        for (const analyze::PriorityRow& row : table.rows) t.rows[row.priority] = row;
    std::printf("[ measured ] priority %s %s->%s: 4 KiB alone %.1f us, equal %.1f us, high %.1f us; 64 MiB alone "
                "%.1f GB/s, equal %.1f, high %.1f\n",
                engine.c_str(), src.c_str(), dst.c_str(), t.small_s["alone"] * 1e6, t.small_s["equal"] * 1e6, t.small_s["high"] * 1e6,
                t.large_gbps["alone"], t.large_gbps["equal"], t.large_gbps["high"]);
    for (const char* level : {"equal", "high"})
        if (t.rows.count(level))
            std::printf("[ measured ]   %s: waited in %zu of %zu samples, %.1f us when it did\n", level,
                        t.rows[level].small_waited, t.rows[level].small_samples, t.rows[level].wait_when_waited_seconds * 1e6);
    return t;
}

}  // namespace

// Copy kernels (the default engine): a load on the same route at equal
// priority takes a good share of the link, and a loaded transfer never beats
// the same transfer alone. Over PCIe the wait is the link's queue of posted
// requests, which no stream priority reorders (nvidia-h100-x2 at 0080e26:
// numa0->gpu0 4 KiB alone 6.0 us, equal 6.8-330 us, high 586-618 us), so
// no order between high and equal is asserted there.
TEST(PatternCGpu, PriorityOnCopyKernelsLoadSharesTheRouteAndNeverBeatsAlone) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const PriorityTimes sm = measure_priority(g, *reg.find("priority"), "sm");
    EXPECT_LE(sm.small_s.at("alone"), sm.small_s.at("equal"));
    EXPECT_LE(sm.small_s.at("alone"), sm.small_s.at("high"));
    EXPECT_LT(sm.large_gbps.at("equal"), 0.8 * sm.large_gbps.at("alone"));
}

// Between two GPUs the copy kernels' blocks are what waits: stream priority
// orders the blocks the scheduler hands out, so the high-priority transfer,
// when it waits at all, waits no longer than the equal-priority one. A
// sample either waits or not, so the medians fall in either mode and prove
// nothing (nvidia-h200-x2 at 730d24c, gpu0->gpu1 4 KiB: equal 7.4 us, high
// 44.4 us, where the waits were equal 77.7-87.0 us, high 46.5-52.5 us). Each
// level takes 40 samples at least: with 3, equal's tight samples converged
// before any waited while high, bimodal, sampled on to 374 and waited in 198
// (nvidia-h200-x2 at daa4b9f), so no wait of equal's was there to compare.
TEST(PatternCGpu, PriorityOnCopyKernelsHelpsBetweenGpus) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const PriorityTimes sm = measure_priority(g, *reg.find("priority"), "sm", "gpu0", "gpu1", 40);
    ASSERT_EQ(sm.rows.count("equal") + sm.rows.count("high"), 2u);
    const analyze::PriorityRow &equal = sm.rows.at("equal"), &high = sm.rows.at("high");
    if (high.small_waited > 0) {
        ASSERT_GT(equal.small_waited, 0u) << "the high-priority transfer waited, the equal one never did";
        EXPECT_LE(high.wait_when_waited_seconds, 1.1 * equal.wait_when_waited_seconds);
    }
    EXPECT_LE(sm.small_s.at("alone"), sm.small_s.at("equal"));
}

// The copy engines, when asked: the record says what their loaded times are.
TEST(PatternCGpu, PriorityOnTheCopyEnginesSaysTheyServeInQueueOrder) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    const Registry reg = cuda_methods();
    const PriorityTimes ce = measure_priority(g, *reg.find("priority"), "ce");
    EXPECT_LE(ce.small_s.at("alone"), ce.small_s.at("equal"));
    EXPECT_LT(ce.large_gbps.at("equal"), 0.8 * ce.large_gbps.at("alone"));
}
