// The model fitted on the committed 2x H200 example: facts about its errors,
// extrapolation to a pair left out, fair share of a shared edge, the file.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "model/check.hpp"
#include "model/fit.hpp"
#include "model/predict.hpp"

using namespace hwcomm;
using namespace hwcomm::model;

namespace {

const std::string kH200x2 = std::string(HWCOMM_DOCS) + "/examples/h200x2/results-default.json.gz";

const ResultsFile& h200x2() {
    static const ResultsFile f = load_results_file(kH200x2);
    return f;
}

ResultsFile without(const ResultsFile& f, const std::string& key_part) {
    ResultsFile out = f;
    std::erase_if(out.records, [&](const Record& r) { return r.key.find(key_part) != std::string::npos; });
    return out;
}

}  // namespace

TEST(ModelFit, EveryRecordOfTheH200ExampleBecomesOneCurveNamingItsSource) {
    const Model m = fit_model({{kH200x2, h200x2()}});
    EXPECT_EQ(m.curves.size(), 43u);
    ASSERT_EQ(m.sources.size(), 1u);
    EXPECT_EQ(m.sources[0].revision, "f38c90b");
    EXPECT_EQ(m.sources[0].records, 43u);
    const CurveModel* peer = m.find("memcpy-peer|gpu0|gpu1|peer=on");
    ASSERT_NE(peer, nullptr);
    EXPECT_EQ(peer->limit_what, "NVLink 4.0 x18");
    EXPECT_EQ(peer->bottleneck, "gpu0->nvswitch-fabric");
    EXPECT_NEAR(large_gbps(peer->fit), 391.2, 1);
    const CurveModel* duplex = m.find("duplex-d2d|gpu0|gpu1|peer=on");
    ASSERT_NE(duplex, nullptr);
    EXPECT_DOUBLE_EQ(duplex->fit.bytes_per_rep_factor, 2.0);
    // The file round-trips: same curves, same predictions.
    const Model back = model_from_json(model_to_json(m));
    ASSERT_EQ(back.curves.size(), m.curves.size());
    EXPECT_DOUBLE_EQ(predict_seconds(back.find(peer->key)->fit, 3u << 20), predict_seconds(peer->fit, 3u << 20));
}

TEST(ModelFit, LeaveOneSizeOutErrorOnTheH200ExampleStaysUnderFivePercent) {
    const CheckReport r = check_model({{kH200x2, h200x2()}}, 64 * 1024, 64u << 20);
    EXPECT_EQ(r.sizes.cases.size(), 43u * 15u);  // 64 KiB .. 1 GiB: 15 sizes per curve
    EXPECT_LT(r.sizes.median_abs, 0.05);
    EXPECT_TRUE(r.lanes.cases.empty());          // no concurrency record in this file
}

TEST(ModelFit, APairLeftOutIsExtrapolatedFromTheSameKindOfEdgeWithinFivePercent) {
    const ResultsFile cut = without(h200x2(), "|gpu1|gpu0|");
    const Model m = fit_model({{"cut.json", cut}});
    const Graph g = graph_from_json(m.topology);
    const Answer a = predict_alone(m, &g, {"memcpy-peer", {{"peer", "on"}}, "gpu1", "gpu0", 1u << 30});
    EXPECT_EQ(a.basis, "extrapolated");
    EXPECT_EQ(a.limit_what, "NVLink 4.0 x18");
    EXPECT_EQ(a.bottleneck, "gpu1->nvswitch-fabric");
    ASSERT_EQ(a.rests_on.size(), 1u);
    EXPECT_NE(a.rests_on[0].find("memcpy-peer|gpu0|gpu1|peer=on"), std::string::npos);
    const Record* truth = h200x2().find("memcpy-peer|gpu1|gpu0|peer=on");
    ASSERT_NE(truth, nullptr);
    EXPECT_NEAR(a.gbps / truth->points.back().bandwidth_gbps, 1.0, 0.05);
    // The same question on the full file is answered from the measurement.
    const Model full = fit_model({{kH200x2, h200x2()}});
    EXPECT_EQ(predict_alone(full, &g, {"memcpy-peer", {{"peer", "on"}}, "gpu1", "gpu0", 1u << 30}).basis, "measured");
}

TEST(ModelFit, TwoTransfersOnOneEdgeShareItsCapacityFairly) {
    Model m = fit_model({{kH200x2, h200x2()}});
    const Graph g = graph_from_json(m.topology);
    const std::vector<Query> two{{"memcpy-peer", {{"peer", "on"}}, "gpu0", "gpu1", 1u << 30},
                                {"memcpy-peer", {{"peer", "on"}}, "gpu0", "gpu1", 1u << 30}};
    // No concurrency record: the NVLink's stated rate times the memcpy-peer efficiency on NVLink 4.0 x18.
    auto a = predict_concurrent(m, &g, two);
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].shared_edge, "gpu0->nvswitch-fabric");
    EXPECT_NEAR(a[0].gbps, a[0].capacity_gbps / 2, 1e-6);
    EXPECT_NEAR(a[1].gbps, a[0].capacity_gbps / 2, 1e-6);
    EXPECT_NEAR(a[0].capacity_gbps, 391.2, 1);  // the median memcpy-peer efficiency, 81.8%
    EXPECT_NEAR(a[0].seconds / predict_alone(m, &g, two[0]).seconds, a[0].alone_gbps / a[0].gbps, 1e-9);
    ASSERT_EQ(a[0].shared.size(), 2u);  // both ends: gpu0->nvswitch-fabric and nvswitch-fabric->gpu1
    EXPECT_EQ(a[0].shared[0].basis, "unmeasured");
    // The stated rate bounds it: the interval reaches half the stated rate.
    EXPECT_NEAR(a[0].gbps_high, 478.125 / 2, 1e-6);
    // A curve fitted for the shared edge wins over the stated rate (here a hard cap at 300 GB/s).
    SharedEdgeFit fitted{"gpu0->nvswitch-fabric", "NVLink 4.0 x18", "memcpy-peer peer=on", 478.125,
                         {{"one-to-all|gpu0|gpu*-gpu0|mode=ce", 2, 782.4, 300, 300, 300}}, {300, kMaxSharpness, false, 0}};
    m.shared_edges.push_back(fitted);
    a = predict_concurrent(m, &g, two);
    EXPECT_NEAR(a[0].gbps, 150, 1e-3);
    ASSERT_EQ(a[0].shared.size(), 2u);
    EXPECT_EQ(a[0].shared[0].edge, "gpu0->nvswitch-fabric");
    EXPECT_EQ(a[0].shared[0].basis, "fitted");
    EXPECT_EQ(a[0].shared[0].counts, std::vector<std::size_t>{2});
    EXPECT_EQ(a[0].shared[0].records, std::vector<std::string>{"one-to-all|gpu0|gpu*-gpu0|mode=ce"});
    EXPECT_FALSE(a[0].shared[0].extrapolated);
    // Opposite directions do not share (links are full duplex).
    a = predict_concurrent(m, &g, {two[0], {"memcpy-peer", {{"peer", "on"}}, "gpu1", "gpu0", 1u << 30}});
    EXPECT_TRUE(a[0].shared_edge.empty());
}

TEST(ModelFit, BadModelFilesAreOneUsageErrorLine) {
    EXPECT_THROW(model_from_json(nlohmann::json::object()), UsageError);
    nlohmann::json j = model_to_json(fit_model({{kH200x2, h200x2()}}));
    j["curves"][0]["knots"][1][0] = 0;  // sizes out of order
    try {
        model_from_json(j);
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("bad knot"), std::string::npos);
    }
    j = model_to_json(fit_model({{kH200x2, h200x2()}}));
    j["version"] = "3.0";
    EXPECT_THROW(model_from_json(j), UsageError);
    // A model of an older version is refused with one line naming it (its shared edges had one fixed capacity).
    j["version"] = "1.0";
    try {
        model_from_json(j);
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("version 1.0"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("model fit"), std::string::npos) << e.what();
    }
}

namespace {

// A two-lane record (shape of the concurrency methods): two readers of gpu0
// whose lanes each got `lane_gbps` at 1 GiB.
Record two_readers(const std::string& method, double lane_gbps) {
    Record r;
    r.method = method, r.src = "gpu0", r.dst = "gpu1", r.params = {{"mode", "ce"}};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    for (const char* label : {"a", "b"})
        r.lanes.push_back({label, method, "gpu0", "gpu1", {{"mode", "ce"}, {"initiator", "dst"}}, "measured", {}});
    for (std::uint64_t bytes : {1ull << 28, 1ull << 29, 1ull << 30}) {
        Point p;
        p.bytes = bytes, p.bytes_per_rep = 2.0 * static_cast<double>(bytes);
        p.bandwidth_gbps = 2 * lane_gbps, p.stats.n = 5;
        p.stats.median = p.bytes_per_rep / (p.bandwidth_gbps * 1e9);
        for (const char* label : {"a", "b"}) {
            LanePoint l;
            l.label = label, l.bytes_per_rep = static_cast<double>(bytes), l.bandwidth_gbps = lane_gbps;
            p.lanes.push_back(l);
        }
        r.points.push_back(p);
    }
    return r;
}

}  // namespace

TEST(ModelFit, ConcurrencyLanesArePredictedFromTheCapacityFittedOnTheOtherRecords) {
    ResultsFile f = h200x2();
    f.records.push_back(two_readers("one-to-all", 150));
    f.records.push_back(two_readers("all-to-one", 160));
    const Model m = fit_model({{"synthetic.json", f}});
    // Both lanes cross gpu0->nvswitch-fabric and nvswitch-fabric->gpu1: each edge carried 300 (resp. 320)
    // for two copy-engine peer copies, one curve per edge through both records.
    ASSERT_EQ(m.shared_edges.size(), 2u);
    EXPECT_EQ(m.shared_edges[0].edge, "gpu0->nvswitch-fabric");
    EXPECT_EQ(m.shared_edges[0].kind, "memcpy-peer peer=on");
    ASSERT_EQ(m.shared_edges[0].observations.size(), 2u);
    EXPECT_NEAR(m.shared_edges[0].observations[0].carried_gbps, 300, 1e-6);  // in the files' order
    EXPECT_NEAR(m.shared_edges[0].observations[1].carried_gbps, 320, 1e-6);
    const CheckReport r = check_model({{"synthetic.json", f}}, 64 * 1024, 1u << 28);
    // Each record is predicted from the other's capacity: 160 per lane for the first, 150 for the second.
    ASSERT_EQ(r.lanes.cases.size(), 12u);
    for (const CheckCase& c : r.lanes.cases) {
        const double expected = c.key.rfind("one-to-all", 0) == 0 ? 160.0 / 150 - 1 : 150.0 / 160 - 1;
        EXPECT_NEAR(c.error, expected, 1e-3) << c.key;  // A(x) moves a little with each size's demand
    }
    ASSERT_EQ(r.aggregates.cases.size(), 6u);
    EXPECT_NEAR(r.aggregates.median_abs, (160.0 / 150 - 1 + 1 - 150.0 / 160) / 2, 1e-3);
}

namespace {

// A transfer measured under load U (the shape `hwcomm run --under-load` writes):
// one measured lane numa0->gpuN and one background lane numa0->gpuM, each at `gbps`.
Record under_load(const std::string& gpu, const std::string& load_gpu, double gbps) {
    Record r;
    r.method = "memcpy-h2d", r.src = "numa0", r.dst = gpu;
    r.params = {{"host_mem", "pinned"}, {"numa", "0"}, {"load", "numa0->" + load_gpu}};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.lanes.push_back({"numa0->" + gpu, "memcpy-h2d", "numa0", gpu, {{"host_mem", "pinned"}}, "measured", {}});
    r.lanes.push_back({"load:numa0->" + load_gpu, "memcpy-h2d", "numa0", load_gpu,
                       {{"chunk_bytes", "33554432"}, {"spec", "memcpy-h2d numa0->" + load_gpu}}, "load", {}});
    for (std::uint64_t bytes : {1ull << 28, 1ull << 30}) {
        Point p;
        p.bytes = bytes, p.bytes_per_rep = static_cast<double>(bytes), p.bandwidth_gbps = gbps, p.stats.n = 5;
        p.stats.median = p.bytes_per_rep / (gbps * 1e9);
        for (const auto& l : r.lanes) {
            LanePoint lp;
            lp.label = l.label, lp.bytes_per_rep = static_cast<double>(bytes), lp.bandwidth_gbps = gbps;
            p.lanes.push_back(lp);
        }
        r.points.push_back(p);
    }
    return r;
}

}  // namespace

TEST(ModelFit, ATransferUnderLoadIsPredictedFromTheHostSideFittedOnAnotherLoadedRecord) {
    ResultsFile f = h200x2();
    f.records.push_back(under_load("gpu0", "gpu1", 45));
    f.records.push_back(under_load("gpu1", "gpu0", 45));
    const Model m = fit_model({{"loaded.json", f}});
    // Both lanes leave NUMA node 0 through its host bridge: that edge carried 2 x 45 GB/s.
    const auto host = std::find_if(m.shared_edges.begin(), m.shared_edges.end(),
                                   [](const SharedEdgeFit& e) { return e.edge == "numa0->pci0000:00"; });
    ASSERT_NE(host, m.shared_edges.end());
    ASSERT_EQ(host->observations.size(), 2u);
    EXPECT_NEAR(host->observations[0].carried_gbps, 90, 1e-6);
    EXPECT_EQ(host->stated_gbps, 0);
    // A loaded record is no single transfer: numa0->gpu0 alone still answers from the unloaded record.
    const Graph g = graph_from_json(m.topology);
    const Answer alone = predict_alone(m, &g, {"memcpy-h2d", {{"host_mem", "pinned"}}, "numa0", "gpu0", 1u << 30});
    EXPECT_NEAR(alone.gbps, 55.1, 0.5);
    // Each loaded record predicted from the capacity fitted on the other: 45 GB/s, as measured.
    const CheckReport r = check_model({{"loaded.json", f}}, 64 * 1024, 1u << 28);
    ASSERT_EQ(r.lanes.cases.size(), 4u);  // the measured lane of 2 records at 2 sizes
    for (const CheckCase& c : r.lanes.cases) EXPECT_NEAR(c.error, 0, 1e-3) << c.key;
    EXPECT_TRUE(r.aggregates.cases.empty());
}
