// The model on the study's DGX-1 data (imported Comm|Scope results).
#include <gtest/gtest.h>

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
