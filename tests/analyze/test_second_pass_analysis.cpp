// A class measured twice (context.second_pass, run/second_pass.hpp): analyze
// compares each link by bytes over the mean time of its two measurements, and
// holds the identical-links verdict to how far one link moved between them.
// Synthetic records over the DGX-1's NVLink class.
#include <gtest/gtest.h>

#include "analyze/class_outliers.hpp"
#include "analyze/record_classes.hpp"
#include "analyze/representative_recheck.hpp"
#include "core/graph_json.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "peer_records.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

using test::k64M;
using test::nvlink_class;

const Cell& nvlink_cell(const Analysis& a) {
    for (const Cell& c : a.cells)
        if (c.table == "identical_links" && c.link == "gpu-gpu" && c.peer == "on" && c.verdict != "no-data" &&
            c.verdict != "n/a")
            return c;
    throw std::runtime_error("no NVLink identical-links cell");
}

std::size_t differ_anomalies(const Analysis& a) {
    std::size_t n = 0;
    for (const Anomaly& x : a.anomalies) n += x.kind == "identical-links-differ";
    return n;
}

}  // namespace

// 9.0-11.0 GB/s once each (+22%), then 10.8, 9.2, 10.0, 9.4: the means lie
// 9.58-10.24 (+6.9%), and one link moved +20%: not told apart.
TEST(SecondPassAnalysis, ANoisyClassMeasuredTwiceIsComparedByTheMeansAndHeldToHowFarALinkMoved) {
    const ResultsFile once = nvlink_class({9.0, 10.0, 10.5, 11.0}, {});
    const Analysis before = analyze_results({{"dgx1", once}});
    EXPECT_EQ(nvlink_cell(before).verdict, "true");
    EXPECT_NEAR(*nvlink_cell(before).effect, 11.0 / 9.0 - 1, 1e-3);
    EXPECT_EQ(differ_anomalies(before), 1u);

    const ResultsFile twice = nvlink_class({9.0, 10.0, 10.5, 11.0}, {10.8, 9.2, 10.0, 9.4});
    const auto again = second_pass_repeat(twice.records[1]);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->bytes, k64M);
    EXPECT_NEAR(again->first_gbps, 10.0, 1e-9);
    EXPECT_NEAR(again->again_gbps, 9.2, 1e-9);
    EXPECT_NEAR(class_comparison_gbps(twice.records[1]).at(k64M), 2 / (1 / 10.0 + 1 / 9.2), 1e-9);
    const Analysis after = analyze_results({{"dgx1", twice}});
    const Cell& c = nvlink_cell(after);
    const double lo = 2 / (1 / 10.0 + 1 / 9.2), hi = 2 / (1 / 10.5 + 1 / 10.0);
    EXPECT_NEAR(*c.effect, hi / lo - 1, 1e-9);
    EXPECT_EQ(c.verdict, "false");
    ASSERT_TRUE(c.evidence.contains("within_repeat"));
    EXPECT_NEAR(c.evidence["within_repeat"]["difference"].get<double>(), 10.8 / 9.0 - 1, 1e-9);
    const auto& group = c.evidence["groups"].begin().value();
    EXPECT_EQ(group.at("measured_twice"), 4);
    EXPECT_TRUE(group.at("within_repeat").get<bool>());
    EXPECT_EQ(differ_anomalies(after), 0u);
    EXPECT_NE(format_analysis_text(after).find("4 links at 1 size, 4 measured twice, within one link's repeat (+20.0%)"),
              std::string::npos)
        << format_analysis_text(after);
    EXPECT_EQ(second_pass_note(twice.records[1]),
              "its class measured twice (its 4 links spread): here 10 then 9.2 GB/s (-8.0%); its class compares it by "
              "both");
    EXPECT_EQ(second_pass_note(once.records[1]), "");
    // --markdown leads the cell's reason with it, its "|" escaped.
    EXPECT_NE(format_analysis_markdown(after).find("| no | +6.9% | not told apart: the links spread +6.9%, no more "
                                                   "than memcpy-peer\\|gpu0\\|gpu1\\|peer=on moved between two of its "
                                                   "measurements (+20.0%); pairs of one link class"),
              std::string::npos)
        << format_analysis_markdown(after);
    // A failed second measurement (no again_gbps) or junk: the link by its first alone.
    ResultsFile odd = twice;
    odd.records[1].context["second_pass"].erase("again_gbps");
    odd.records[1].context["second_pass"]["error"] = "verification failed";
    EXPECT_FALSE(second_pass_repeat(odd.records[1]));
    EXPECT_EQ(second_pass_note(odd.records[1]),
              "its class measured twice (its 4 links spread): the second measurement failed (verification failed)");
    for (const nlohmann::json& junk : {nlohmann::json(3), nlohmann::json{{"bytes", "x"}, {"again_gbps", 1.0}},
                                       nlohmann::json{{"bytes", k64M}, {"again_gbps", "fast"}}}) {
        odd.records[2].context["second_pass"] = junk;
        EXPECT_FALSE(second_pass_repeat(odd.records[2]));
        EXPECT_NO_THROW((void)second_pass_note(odd.records[2]));
        EXPECT_NO_THROW((void)analyze_results({{"dgx1", odd}}));
    }
}

// One link 40% below its three siblings in both measurements, each within 2%
// of its first: the links differ by more than any of them moved.
TEST(SecondPassAnalysis, AnUnlikeLinkMeasuredTwiceIsToldApart) {
    const ResultsFile f = nvlink_class({10.0, 10.2, 10.1, 6.0}, {10.1, 10.0, 10.0, 6.1});
    // The outlier rule compares the means too: 6.05 against the class's median of four means.
    const Graph g = graph_from_json(f.topology);
    const auto outliers = class_outliers(f, record_classes(f, &g, "dgx1"), VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_EQ(outliers[0].key, "memcpy-peer|gpu4|gpu0|peer=on");
    std::vector<double> means;
    for (const Record& r : f.records) means.push_back(class_comparison_gbps(r).at(k64M));
    std::sort(means.begin(), means.end());
    EXPECT_NEAR(outliers[0].difference, means[0] / ((means[1] + means[2]) / 2) - 1, 1e-3);
    const Analysis a = analyze_results({{"dgx1", f}});
    const Cell& c = nvlink_cell(a);
    EXPECT_EQ(c.verdict, "true");
    EXPECT_FALSE(c.evidence.contains("within_repeat"));
    EXPECT_GT(*c.effect, 0.6);
    ASSERT_EQ(differ_anomalies(a), 1u);
    for (const Anomaly& x : a.anomalies)
        if (x.kind == "identical-links-differ") {
            EXPECT_NE(x.text.find("the links differ by more than it moved"), std::string::npos) << x.text;
        }
}
