// The model on the study's DGX-1 data (imported Comm|Scope results).
#include <gtest/gtest.h>

#include <algorithm>

#include "analyze/dgx1_fixture.hpp"
#include "core/graph_json.hpp"
#include "model/check.hpp"
#include "model/predict.hpp"

using namespace hwcomm;
using namespace hwcomm::model;

TEST(ModelDgx1, LeaveOneSizeOutAndLeaveOnePairOutErrorsOnTheStudysData) {
    const auto& data = test::dgx1_import();
    const CheckReport r = check_model({{"dgx1.json", data.results}}, 64 * 1024, 64u << 20);
    EXPECT_GT(r.sizes.cases.size(), 1000u);
    EXPECT_LT(r.sizes.median_abs, 0.05);
    // Held-out pairs: the worst is the study's "identical links differ" (peer off, GPU0->GPU1, ~11%).
    EXPECT_LT(r.pairs.median_abs, 0.01);
    EXPECT_LT(r.pairs.max_abs, 0.15);
}

TEST(ModelDgx1, APeerPairNeverMeasuredIsExtrapolatedFromTheNvLinkPairs) {
    const Model m = fit_model({{"dgx1.json", test::dgx1_import().results}});
    const Graph g = graph_from_json(m.topology);
    const Answer a = predict_alone(m, &g, {"memcpy-peer", {{"peer", "on"}}, "gpu2", "gpu3", 64u << 20});
    EXPECT_EQ(a.basis, "extrapolated");
    EXPECT_EQ(a.limit_what, "NVLink 1.0 x1");
    EXPECT_EQ(a.rests_on.size(), 4u);  // GPU0 -> GPU1..4
    EXPECT_NEAR(a.gbps, 18.4, 0.1);    // 92% of 20 GB/s
}

TEST(ModelDgx1, TheNumaParameterFollowsFromTheHostEndOfAnUnmeasuredPair) {
    ResultsFile cut = test::dgx1_import().results;
    const Record truth = *cut.find("memcpy-h2d|numa1|gpu5|host_mem=pinned,numa=1");
    std::erase_if(cut.records, [](const Record& r) { return r.method == "memcpy-h2d" && r.dst == "gpu5"; });
    const Model m = fit_model({{"cut.json", cut}});
    const Graph g = graph_from_json(m.topology);
    // Curves of numa=0 and numa=1 are candidates; the query's NUMA end picks numa=1.
    const Answer a = predict_alone(m, &g, {"memcpy-h2d", {{"host_mem", "pinned"}}, "numa1", "gpu5", 1u << 30});
    EXPECT_EQ(a.basis, "extrapolated");
    EXPECT_EQ(a.params.at("numa"), "1");
    const Point& p = *std::find_if(truth.points.begin(), truth.points.end(),
                                   [](const Point& x) { return x.bytes == (1u << 30); });
    EXPECT_NEAR(a.gbps / p.bandwidth_gbps, 1.0, 0.01);
}
