// A representative measured again beside its class's confirmations
// (context.recheck): the class comparisons of analyze take that measurement
// at its sizes, so a sweep that ran in a fast spell of the machine is not an
// unlike link; one outside again still is. Synthetic records over the DGX-1.
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
using test::peer;

// The DGX-1's NVLink class (representative gpu0->gpu1) swept at 24 GB/s, its
// three confirmations at 17.95-18.4; `again`: the representative measured
// again beside them at 64 MiB (0: not measured again).
ResultsFile dgx1(double again, const std::string& verdict = "within", bool outside = false) {
    ResultsFile f;
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx1.xml"), .use_nvml = false, .use_cuda = false});
    f.topology = graph_to_json(g);
    f.records.push_back(peer("gpu0", "gpu1", 24.0, "full", 1ull << 30));
    f.records.push_back(peer("gpu0", "gpu2", 18.4, "confirmed"));
    f.records.push_back(peer("gpu2", "gpu3", 18.3, "confirmed"));
    f.records.push_back(peer("gpu4", "gpu0", 17.95, "confirmed"));
    if (again > 0)
        f.records[0].context["recheck"] = {
            {"reason", "at 64 MiB 24 GB/s, +31.1% from the median of its class's 4 links (18.3 GB/s)"},
            {"verdict", verdict},
            {"compared",
             {{{"bytes", k64M}, {"axes", nlohmann::json::object()}, {"first_gbps", 24.0}, {"again_gbps", again},
               {"class_median_gbps", 18.3}, {"links", 4}, {"outside", outside || verdict != "within"}}}}};
    return f;
}

std::vector<ClassOutlier> outliers(const ResultsFile& f) {
    const Graph g = graph_from_json(f.topology);
    return class_outliers(f, record_classes(f, &g, "dgx1"), VerdictRule{});
}

const Cell* nvlink_identical_cell(const Analysis& a) {
    for (const Cell& c : a.cells)
        if (c.table == "identical_links" && c.link == "gpu-gpu" && c.peer == "on" && c.verdict != "no-data" &&
            c.verdict != "n/a")
            return &c;
    return nullptr;
}

std::size_t count_kind(const Analysis& a, const std::string& kind) {
    std::size_t n = 0;
    for (const Anomaly& x : a.anomalies) n += x.kind == kind;
    return n;
}

}  // namespace

TEST(RecheckAnalysis, ASweepInAFastSpellIsAnOutlierUntilMeasuredAgainBesideItsClass) {
    const auto before = outliers(dgx1(0));
    ASSERT_EQ(before.size(), 1u);
    EXPECT_EQ(before[0].key, "memcpy-peer|gpu0|gpu1|peer=on");
    EXPECT_EQ(before[0].class_links, 4u);
    EXPECT_TRUE(outliers(dgx1(18.2)).empty());
    // Outside again: the second measurement still lies off its class.
    const auto again = outliers(dgx1(23.5, "outside again"));
    ASSERT_EQ(again.size(), 1u);
    EXPECT_NEAR(again[0].difference, 23.5 / 18.35 - 1, 1e-3);  // the median of 18.4, 18.3, 17.95 and 23.5
}

TEST(RecheckAnalysis, TheIdenticalLinkCellComparesTheSecondMeasurementAndSaysSo) {
    const Analysis before = analyze_results({{"dgx1", dgx1(0)}});
    const Cell* b = nvlink_identical_cell(before);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->verdict, "true");
    EXPECT_NEAR(*b->effect, 24.0 / 17.95 - 1, 1e-3);
    const Analysis after = analyze_results({{"dgx1", dgx1(18.2)}});
    const Cell* a = nvlink_identical_cell(after);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->verdict, "false");
    EXPECT_NEAR(*a->effect, 18.4 / 17.95 - 1, 1e-3);
    bool named = false;
    for (const auto& [cls, g] : a->evidence.at("groups").items())
        if (g.contains("measured_again")) named = g.at("measured_again") == nlohmann::json::array({"memcpy-peer|gpu0|gpu1|peer=on"});
    EXPECT_TRUE(named) << a->evidence.dump();
    // The record's own curve stays its sweep: the series' window is the sweep's.
    for (const Series& s : after.series)
        if (s.key == "memcpy-peer|gpu0|gpu1|peer=on") {
            EXPECT_DOUBLE_EQ(s.window_points.at(k64M), 24.0);
        }
    EXPECT_EQ(count_kind(after, "representative-measured-again"), 1u);
    EXPECT_EQ(count_kind(after, "identical-link-outlier"), 0u);
    EXPECT_EQ(count_kind(before, "representative-measured-again"), 0u);
}

TEST(RecheckAnalysis, TheAnomalySaysWhatTheSecondMeasurementRead) {
    const ResultsFile within = dgx1(18.2);
    const auto a = recheck_anomaly(within.records[0]);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->kind, "representative-measured-again");
    EXPECT_NE(a->text.find("it read 18.2 GB/s at 64 MiB (-0.5% from the class's median): within its class"),
              std::string::npos)
        << a->text;
    // With the host read probe's rates around the sweep and around the second measurement.
    Record probed = within.records[0];
    probed.context["host_read_gbps"] = {146.9, 102.5};
    probed.context["recheck"]["host_read_gbps"] = {97.2, 103.2};
    const auto host = recheck_anomaly(probed);
    EXPECT_NE(host->text.find("; the host read probe read 124.7 GB/s around the sweep and 100.2 around the second "
                              "measurement (-19.6%)"),
              std::string::npos)
        << host->text;
    const auto out = recheck_anomaly(dgx1(23.5, "outside again").records[0]);
    ASSERT_TRUE(out);
    EXPECT_NE(out->text.find("outside again on the same side: the link differs"), std::string::npos) << out->text;
    ResultsFile failed = dgx1(18.2, "failed");
    failed.records[0].context["recheck"]["error"] = "64 MiB: verification failed";
    EXPECT_TRUE(rechecked_gbps(failed.records[0]).empty());
    EXPECT_NE(recheck_anomaly(failed.records[0])->text.find("it failed (64 MiB: verification failed)"),
              std::string::npos);
    // Whatever a file holds there: no crash, nothing taken.
    Record odd = within.records[0];
    for (const nlohmann::json& junk : {nlohmann::json(3), nlohmann::json::array({1, "x"}),
                                       nlohmann::json{{"compared", {{{"bytes", -1}, {"again_gbps", "fast"}}}}},
                                       nlohmann::json{{"verdict", 5}, {"reason", nlohmann::json::array()},
                                                      {"compared", {{{"first_gbps", 1}, {"bytes", "x"}}}}}}) {
        odd.context["recheck"] = junk;
        EXPECT_TRUE(rechecked_gbps(odd).empty());
        (void)recheck_anomaly(odd);
    }
}

// Outside the other way: not outside again on the same side (verdict
// "within"), but not within its class either (4x H200 at 49947bf: um-prefetch
// gpu0->numa0 +18.5% in its sweep, -31.8% measured again).
TEST(RecheckAnalysis, ASecondMeasurementOutsideTheOtherWayIsNotCalledWithin) {
    const ResultsFile other_way = dgx1(14.0, "within", true);
    const auto a = recheck_anomaly(other_way.records[0]);
    ASSERT_TRUE(a);
    EXPECT_NE(a->text.find("it read 14 GB/s at 64 MiB (-23.5% from the class's median): outside the other way this "
                           "time, so the link lay on both sides of its class in two measurements"),
              std::string::npos)
        << a->text;
    EXPECT_EQ(a->text.find("within its class"), std::string::npos) << a->text;
    EXPECT_EQ(recheck_note(other_way.records[0]),
              "its class put it outside (at 64 MiB 24 GB/s, +31.1% from the median of its class's 4 links (18.3 "
              "GB/s)); measured again beside it: -23.5%, outside the other way (moved by the time each ran, not "
              "the link's)");
}

TEST(RecheckAnalysis, SummarysNoteSaysWhereItLayOutsideAndWhatTheSecondMeasurementRead) {
    EXPECT_EQ(recheck_note(dgx1(0).records[0]), "");
    EXPECT_EQ(recheck_note(dgx1(18.2).records[0]),
              "its class put it outside (at 64 MiB 24 GB/s, +31.1% from the median of its class's 4 links (18.3 "
              "GB/s)); measured again beside it: -0.5%, within (its sweep ran at another time than its class)");
    EXPECT_EQ(recheck_note(dgx1(23.5, "outside again").records[0]),
              "its class put it outside (at 64 MiB 24 GB/s, +31.1% from the median of its class's 4 links (18.3 "
              "GB/s)); measured again beside it: +28.4%, outside again (the link's)");
    Record odd = dgx1(18.2).records[0];
    odd.context["recheck"] = {{"verdict", 1}, {"compared", {{{"first_gbps", "x"}, {"bytes", -3}}}}};
    EXPECT_NO_THROW((void)recheck_note(odd));
}


namespace {

// Two links of the NVLink class in the file: the representative swept at 24
// GB/s, the other confirmed at 18 twice; measured again right after it, the
// representative read `again` (run/representative_recheck.hpp, trigger "pair").
ResultsFile two_links(double again, const std::string& verdict) {
    ResultsFile f = dgx1(0);
    f.records.resize(2);
    if (again > 0)
        f.records[0].context["recheck"] = {
            {"trigger", "pair"},
            {"reason", "its class's other link lay outside its sweep twice, the second time at 64 MiB 18.4 GB/s"},
            {"verdict", verdict},
            {"compared",
             {{{"bytes", k64M}, {"axes", nlohmann::json::object()}, {"first_gbps", 24.0}, {"again_gbps", again},
               {"other_gbps", 18.4}, {"outside", verdict != "within"}}}}};
    return f;
}

}  // namespace

TEST(RecheckAnalysis, TwoLinksMeasuredSideBySideAreNoOutlierAndTheNoteSaysWhy) {
    EXPECT_EQ(outliers(two_links(0, "")).size(), 1u);
    EXPECT_TRUE(outliers(two_links(18.6, "within")).empty());
    EXPECT_EQ(outliers(two_links(23.8, "outside again")).size(), 1u);
    const ResultsFile within = two_links(18.6, "within");
    EXPECT_EQ(recheck_note(within.records[0]),
              "its class's other link lay outside its sweep twice; measured again right after it: +1.1% from it, "
              "within (its sweep ran at another time than the other link)");
    const auto a = recheck_anomaly(within.records[0]);
    ASSERT_TRUE(a);
    EXPECT_NE(a->text.find("measured again right after it, it read 18.6 GB/s at 64 MiB (+1.1% from the other link): "
                           "the two links agree, so the sweep's difference was the time it ran"),
              std::string::npos)
        << a->text;
    EXPECT_NE(recheck_anomaly(two_links(23.8, "outside again").records[0])->text.find("the links differ"),
              std::string::npos);
}

namespace {

// Two links of the NVLink class: the representative swept at 24 GB/s, the
// other confirmed twice at 64 MiB, `first` then `kept` GB/s, both outside the
// representative's band; `noise`: the run said so (outside_again_elsewhere).
ResultsFile confirmed_twice(double first, double kept, bool noise = true) {
    ResultsFile f = dgx1(0);
    f.records.resize(2);
    Record& m = f.records[1];
    m = peer("gpu0", "gpu2", kept, "confirmed");
    const auto entry = [](double gbps) {
        return nlohmann::json{{"bytes", k64M},          {"axes", nlohmann::json::object()},
                              {"bandwidth_gbps", gbps}, {"representative_gbps", 24.0},
                              {"outside", true},        {"side", gbps < 24.0 ? "below" : "above"}};
    };
    m.context["confirmation"] = {{"representative", f.records[0].key},
                                 {"compared", {entry(kept)}},
                                 {"first_measurement", {{"reason", "at 64 MiB"}, {"compared", {entry(first)}}}}};
    if (noise) m.context["confirmation"]["outside_again_elsewhere"] = "at 64 MiB (never on the same side: noise)";
    return f;
}

}  // namespace

// nvidia-h200-x2 at f3424de: pageable h2d into gpu1 -6.0% then +7.2% from
// gpu0's sweep at 64 MiB, kept as noise; analyze took the +7.2%.
TEST(RecheckAnalysis, AConfirmationMeasuredTwiceOnEitherSideOfItsClassIsComparedByBoth) {
    const ResultsFile f = confirmed_twice(22.0, 26.0);
    const auto both = measured_twice_gbps(f.records[1]);
    ASSERT_EQ(both.size(), 1u);
    EXPECT_NEAR(both.at(k64M), 2 / (1 / 22.0 + 1 / 26.0), 1e-9);  // bytes over the mean time
    EXPECT_EQ(class_comparison_gbps(f.records[1]), both);
    EXPECT_TRUE(outliers(f).empty());
    const Analysis a = analyze_results({{"dgx1", f}});
    const Cell* c = nvlink_identical_cell(a);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->verdict, "false");
    // The kept measurement alone (+8.3%) is an outlier; so is one the run did not call noise.
    EXPECT_EQ(outliers(confirmed_twice(22.0, 26.0, false)).size(), 1u);
    EXPECT_TRUE(measured_twice_gbps(confirmed_twice(22.0, 26.0, false).records[1]).empty());
    // On the same side both times: the run promotes such a record; nothing combined here.
    EXPECT_TRUE(measured_twice_gbps(confirmed_twice(26.5, 26.0).records[1]).empty());
    // Whatever a file holds there: no crash, nothing taken.
    Record odd = f.records[1];
    for (const nlohmann::json& junk :
         {nlohmann::json(1), nlohmann::json{{"outside_again_elsewhere", 1}, {"compared", 3}, {"first_measurement", "x"}},
          nlohmann::json{{"outside_again_elsewhere", 1},
                         {"compared", {{{"bytes", "x"}, {"outside", true}}}},
                         {"first_measurement", {{"compared", {{{"bytes", k64M}, {"outside", 1}, {"side", 2}}}}}}}}) {
        odd.context["confirmation"] = junk;
        EXPECT_TRUE(measured_twice_gbps(odd).empty());
    }
}

TEST(RecheckAnalysis, IdenticalLinksThatDifferSayHowFarOneOfThemMovedWhenMeasuredTwice) {
    // The representative's sweep and its second measurement; a confirmation's two.
    const auto rep = same_link_repeats(dgx1(23.5, "outside again").records[0]);
    ASSERT_EQ(rep.size(), 1u);
    EXPECT_EQ(rep[0].bytes, k64M);
    EXPECT_DOUBLE_EQ(rep[0].first_gbps, 24.0);
    EXPECT_DOUBLE_EQ(rep[0].again_gbps, 23.5);
    const auto twice = same_link_repeats(confirmed_twice(22.0, 26.0, false).records[1]);
    ASSERT_EQ(twice.size(), 1u);
    EXPECT_DOUBLE_EQ(twice[0].first_gbps, 22.0);
    EXPECT_DOUBLE_EQ(twice[0].again_gbps, 26.0);
    EXPECT_TRUE(same_link_repeats(dgx1(0).records[0]).empty());
    const auto differ = [](const Analysis& a) {
        for (const Anomaly& x : a.anomalies)
            if (x.kind == "identical-links-differ") return x.text;
        return std::string();
    };
    // Outside again by +31%, the representative itself moved -2.1%: the links differ.
    const std::string far = differ(analyze_results({{"dgx1", dgx1(23.5, "outside again")}}));
    EXPECT_NE(far.find("memcpy-peer|gpu0|gpu1|peer=on, measured twice, read 24.00 GB/s then 23.50 GB/s at 64 MiB (-2%)"),
              std::string::npos)
        << far;
    EXPECT_NE(far.find("(-2%): the links differ by more than it moved"), std::string::npos) << far;
    // +8.3% between the two links, one of which moved +18.2% between its own two
    // measurements: not told apart, so the cell says no, and why, and no anomaly.
    const Analysis near = analyze_results({{"dgx1", confirmed_twice(22.0, 26.0, false)}});
    EXPECT_EQ(differ(near), "");
    std::size_t within = 0;
    for (const Cell& c : near.cells) {
        if (c.table != "identical_links" || !c.evidence.contains("within_repeat")) continue;
        ++within;
        EXPECT_EQ(c.verdict, "false");
        EXPECT_NEAR(*c.effect, 26.0 / 24.0 - 1, 1e-9);
        EXPECT_NEAR(c.evidence["within_repeat"]["difference"].get<double>(), 26.0 / 22.0 - 1, 1e-9);
        EXPECT_NEAR(c.evidence["within_repeat"]["spread"].get<double>(), 26.0 / 24.0 - 1, 1e-9);
    }
    EXPECT_EQ(within, 1u);
    EXPECT_NE(format_analysis_text(near).find("within one link's repeat (+18.2%)"), std::string::npos);
}

TEST(RecheckAnalysis, SummarysNoteSaysWhatAConfirmationMeasuredTwiceRead) {
    EXPECT_EQ(measured_twice_note(confirmed_twice(22.0, 26.0).records[1]),
              "confirmed twice: at 64 MiB -8.3% then +8.3% from the representative, on either side: kept as noise, its "
              "class compares it by both");
    // The first outside, the second within: the second kept.
    ResultsFile within = confirmed_twice(20.0, 24.2, false);
    within.records[1].context["confirmation"]["compared"][0]["outside"] = false;
    EXPECT_EQ(measured_twice_note(within.records[1]),
              "confirmed twice: at 64 MiB -16.7% then +0.8% from the representative: the second kept");
    // The pair recheck: the kept measurement against the representative measured again.
    ResultsFile pair = within;
    pair.records[1].context["confirmation"]["beside_representative_again"] = "within it measured again";
    pair.records[1].context["confirmation"]["compared"][0]["representative_gbps"] = 24.0 / 1.01;
    EXPECT_EQ(measured_twice_note(pair.records[1]),
              "confirmed twice, outside the representative's sweep both times (at 64 MiB -16.7% the first); +1.8% from "
              "the representative measured again right after: kept");
    EXPECT_EQ(measured_twice_note(dgx1(0).records[1]), "");  // confirmed once
    Record odd = within.records[1];
    odd.context["confirmation"]["first_measurement"]["compared"][0]["class"] = 3;
    odd.context["confirmation"]["compared"][0]["axes"] = "x";
    EXPECT_NO_THROW((void)measured_twice_note(odd));
}
