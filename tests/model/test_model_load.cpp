// The model under load on the committed 4x H200 sweep (docs/examples/h200x4,
// revision bb915ca: pinned H2D from NUMA node 0 alone and with 1-3 other GPUs
// loading the host side, and the concurrency records): the curve of the host
// side, the checks that hold out whole load levels and members, and what
// predict says; then the files without such records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "model/check.hpp"
#include "model/fit.hpp"
#include "model/predict.hpp"

using namespace hwcomm;
using namespace hwcomm::model;

namespace {

const std::string kX4 = std::string(HWCOMM_DOCS) + "/examples/h200x4/";
const std::string kX2 = std::string(HWCOMM_DOCS) + "/examples/h200x2/";

const std::vector<NamedResults>& x4() {
    static const std::vector<NamedResults> in{{"concurrency", load_results_file(kX4 + "concurrency.json.gz")},
                                              {"under-load", load_results_file(kX4 + "under-load.json.gz")}};
    return in;
}

const Model& x4_model() {
    static const Model m = fit_model(x4());
    return m;
}

const SharedEdgeFit* edge_of(const Model& m, const std::string& edge) {
    for (const SharedEdgeFit& f : m.shared_edges)
        if (f.edge == edge) return &f;
    return nullptr;
}

Query h2d(const std::string& gpu) { return {"memcpy-h2d", {{"host_mem", "pinned"}}, "numa0", gpu, 1u << 30}; }

// The load level of an under-load case ("...|loads=2,with=..." -> 3 transfers).
std::size_t level_of(const CheckCase& c) {
    std::smatch m;
    return std::regex_search(c.key, m, std::regex("loads=(\\d)")) ? std::stoul(m[1]) + 1 : 0;
}

}  // namespace

TEST(ModelLoad, TheHostSideIsOneCurveThroughTwoThreeAndFourTransfers) {
    const SharedEdgeFit* host = edge_of(x4_model(), "numa0->pci0000:00");
    ASSERT_NE(host, nullptr);
    EXPECT_EQ(host->kind, "memcpy-h2d host_mem=pinned");
    EXPECT_EQ(host->stated_gbps, 0);  // no source states the host side's rate
    EXPECT_EQ(counts_of(host->observations), (std::vector<std::size_t>{2, 3, 4}));
    EXPECT_EQ(host->observations.size(), 13u);  // 12 under-load records with loads + host-to-all ce
    EXPECT_TRUE(host->curve.sharpness_fitted);
    // It degrades before it saturates: what 2, 3, 4 copies of ~55 GB/s carry, against the measured medians.
    for (const EdgeObservation& o : host->observations)
        EXPECT_NEAR(carried_gbps(host->curve, o.demand_gbps) / o.carried_gbps, 1.0, 0.04) << o.record;
    EXPECT_LT(carried_gbps(host->curve, 2 * 55.2) / (2 * 55.2), 0.99);
    EXPECT_LT(carried_gbps(host->curve, 3 * 55.2) / (3 * 55.2), 0.91);
    // The other direction has one count (all-to-host ce; the copy-kernel records have no
    // single sm-copy curve to ask their rate alone): C alone, at the default sharpness.
    const SharedEdgeFit* back = edge_of(x4_model(), "pci0000:00->numa0");
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(counts_of(back->observations), std::vector<std::size_t>{4});
    EXPECT_FALSE(back->curve.sharpness_fitted);
    EXPECT_EQ(back->curve.sharpness, kDefaultSharpness);
}

TEST(ModelLoad, EachLoadLevelHeldOutIsPredictedFromTheOthers) {
    const CheckReport r = check_model(x4(), 64 * 1024, 64u << 20);
    ASSERT_EQ(r.levels.groups.size(), 3u);  // 2, 3 and 4 transfers
    EXPECT_EQ(r.levels.groups[0].within_5pct, r.levels.groups[0].cases.size());
    EXPECT_EQ(r.levels.groups[1].within_5pct, r.levels.groups[1].cases.size());
    // With 4 transfers held out the curve extrapolates from 2 and 3: every lane lies in the stated interval.
    EXPECT_EQ(r.levels.groups[2].inside_interval, r.levels.groups[2].cases.size());
    // The under-load lanes, level by level (the old fixed capacity: +9.3..+16.8% with 3 transfers).
    std::size_t loaded = 0, within = 0;
    for (const CheckCase& c : r.levels.cases) {
        if (!level_of(c)) continue;
        ++loaded, within += std::abs(c.error) <= 0.05;
        EXPECT_LT(std::abs(c.error), 0.055) << c.key << " at " << c.bytes;
    }
    EXPECT_EQ(loaded, 36u);
    EXPECT_GE(within, 35u);
    // The all-to-host records are the only ones of their edge: held out, it is unmeasured, not predicted.
    EXPECT_EQ(r.levels.skipped, 1u);
    // Sizes and pairs are not touched by the load model.
    EXPECT_NEAR(r.sizes.median_abs, 0.0198, 0.0005);
    EXPECT_NEAR(r.pairs.median_abs, 0.0011, 0.0005);
}

TEST(ModelLoad, EachMemberHeldOutWithItsSingleTransfersIsPredictedFromTheOtherGpus) {
    const CheckReport r = check_model(x4(), 64 * 1024, 64u << 20);
    std::size_t host_side = 0;
    for (const ErrorSummary& g : r.members.groups) {
        if (g.name.find("on numa0->pci0000:00") == std::string::npos) continue;
        ++host_side;
        EXPECT_EQ(g.cases.size(), 12u) << g.name;  // its under-load lanes at 3 sizes, its host-to-all lane at 3
        EXPECT_LT(g.median_abs, 0.035) << g.name;
    }
    EXPECT_EQ(host_side, 4u);
    for (const CheckCase& c : r.members.cases) {
        if (level_of(c)) {
            EXPECT_LT(std::abs(c.error), 0.055) << c.key << " at " << c.bytes;
        }
    }
}

TEST(ModelLoad, PredictNamesTheCurveItsCountsAndWhenItExtrapolates) {
    const Model& m = x4_model();
    const Graph g = graph_from_json(m.topology);
    auto a = predict_concurrent(m, &g, {h2d("gpu0"), h2d("gpu1"), h2d("gpu2")});
    ASSERT_EQ(a[0].shared.size(), 1u);
    const SharedEdgeAnswer& e = a[0].shared[0];
    EXPECT_EQ(e.edge, "numa0->pci0000:00");
    EXPECT_EQ(e.transfers, 3u);
    EXPECT_EQ(e.basis, "fitted");
    EXPECT_EQ(e.counts, (std::vector<std::size_t>{2, 3, 4}));
    EXPECT_EQ(e.records.size(), 13u);
    EXPECT_FALSE(e.extrapolated);
    EXPECT_EQ(e.range, "at 3 transfers (measured)");
    EXPECT_NE(e.curve.find("A(x) = x / (1 + (x/C)^k)^(1/k)"), std::string::npos) << e.curve;
    EXPECT_EQ(a[0].shared_edge, "numa0->pci0000:00");
    EXPECT_NEAR(a[0].gbps, 48.9, 48.9 * 0.05);  // measured with 2 loads at 1 GiB: 48.4-50.2
    EXPECT_LE(a[0].gbps_low, a[0].gbps);
    EXPECT_GE(a[0].gbps_high, a[0].gbps);
    // Five copies through the host side: beyond the 4 measured. The interval runs from the most
    // the edge carried with 4 to what the 5 ask alone.
    a = predict_concurrent(m, &g, {h2d("gpu0"), h2d("gpu1"), h2d("gpu2"), h2d("gpu3"), h2d("gpu0")});
    const auto host = std::find_if(a[1].shared.begin(), a[1].shared.end(),
                                   [](const SharedEdgeAnswer& s) { return s.edge == "numa0->pci0000:00"; });
    ASSERT_NE(host, a[1].shared.end());
    EXPECT_TRUE(host->extrapolated);
    EXPECT_NE(host->range.find("beyond the 4 transfers measured"), std::string::npos);
    double most = 0;
    for (const EdgeObservation& o : edge_of(m, "numa0->pci0000:00")->observations)
        if (o.transfers == 4) most = std::max(most, o.carried_gbps);
    EXPECT_DOUBLE_EQ(host->carried_low, std::min(host->carried_gbps, most));
    EXPECT_DOUBLE_EQ(host->carried_high, host->demand_gbps);
    // gpu0's own PCIe link is shared by its two copies: no record measured that, its stated rate bounds it.
    const auto link = std::find_if(a[0].shared.begin(), a[0].shared.end(),
                                   [](const SharedEdgeAnswer& s) { return s.edge == "pci0000:00->gpu0"; });
    ASSERT_NE(link, a[0].shared.end());
    EXPECT_EQ(link->basis, "unmeasured");
    EXPECT_DOUBLE_EQ(link->carried_high, std::min(link->demand_gbps, link->stated_gbps));
}

TEST(ModelLoad, AKindNeverMeasuredOnTheEdgeTakesTheMeasuredOnesUpToNoContention) {
    const Model& m = x4_model();
    const Graph g = graph_from_json(m.topology);
    Query wc = h2d("gpu1");
    wc.params = {{"host_mem", "wc"}};
    const auto a = predict_concurrent(m, &g, {h2d("gpu0"), wc});
    ASSERT_EQ(a[0].shared.size(), 1u);
    const SharedEdgeAnswer& e = a[0].shared[0];
    EXPECT_EQ(e.kinds, "memcpy-h2d host_mem=pinned x1 + memcpy-h2d host_mem=wc x1");
    ASSERT_EQ(e.notes.size(), 2u);
    EXPECT_NE(e.notes[1].find("memcpy-h2d host_mem=wc was never measured sharing numa0->pci0000:00"),
              std::string::npos) << e.notes[1];
    EXPECT_DOUBLE_EQ(e.carried_high, e.demand_gbps);
}

TEST(ModelLoad, FilesWithoutTransfersRunTogetherSayTheModelCannotAnswerUnderLoad) {
    const std::vector<NamedResults> in{{"x2", load_results_file(kX2 + "results-default.json.gz")}};
    const CheckReport r = check_model(in, 64 * 1024, 64u << 20);
    EXPECT_NE(r.no_load_reason.find("cannot answer under load"), std::string::npos);
    EXPECT_TRUE(r.levels.cases.empty());
    EXPECT_TRUE(r.members.cases.empty());
    const Model m = fit_model(in);
    const Graph g = graph_from_json(m.topology);
    const auto a = predict_concurrent(m, &g, {h2d("gpu0"), h2d("gpu1")});
    ASSERT_EQ(a[0].shared.size(), 1u);
    EXPECT_EQ(a[0].shared[0].basis, "unmeasured");
    EXPECT_TRUE(std::isinf(a[0].shared[0].carried_gbps));  // the host side states no rate: no bound
    EXPECT_NEAR(a[0].gbps, a[0].alone_gbps, 1e-9);
    EXPECT_TRUE(std::any_of(a[0].notes.begin(), a[0].notes.end(), [](const std::string& n) {
        return n.find("the model cannot answer under load") != std::string::npos;
    }));
}

TEST(ModelLoad, TheTwoH200LoadFileFitsItsOneCountAtTheDefaultSharpness) {
    const std::vector<NamedResults> in{{"x2", load_results_file(kX2 + "results-default.json.gz")},
                                       {"load", load_results_file(kX2 + "load.json.gz")}};
    const Model m = fit_model(in);
    const SharedEdgeFit* host = edge_of(m, "numa0->pci0000:00");
    ASSERT_NE(host, nullptr);
    EXPECT_EQ(counts_of(host->observations), std::vector<std::size_t>{2});
    EXPECT_FALSE(host->curve.sharpness_fitted);
    const Graph g = graph_from_json(m.topology);
    const auto a = predict_concurrent(m, &g, {h2d("gpu0"), h2d("gpu1")});
    EXPECT_NEAR(a[0].gbps, 55.4, 55.4 * 0.01);  // measured: 55.4 with numa0->gpu1 loading
    EXPECT_EQ(a[0].shared.at(0).range, "at 2 transfers (measured)");
}
