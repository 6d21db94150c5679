// hwcomm summary's run time against the plan's estimate, and how each record
// was measured in its status column (issue 21 items 2 and 4).
#include <gtest/gtest.h>

#include "analyze/run_time.hpp"
#include "analyze/summary.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

Record timed(const std::string& method, const std::string& dst, const std::string& as, double estimate, double elapsed) {
    Record r;
    r.method = method;
    r.src = "gpu0";
    r.dst = dst;
    r.key = record_key(r.method, r.src, r.dst, {});
    r.measured_as = as;
    r.context = {{"estimate_s", estimate}, {"elapsed_s", elapsed}};
    Point p;
    p.bytes = 1 << 20;
    p.verified = true;
    p.bandwidth_gbps = 100;
    p.stats.median = p.stats.min = (1 << 20) / 100e9;
    p.stats.n = 5;
    p.elapsed_s = 0.25 * elapsed;  // the rest of the record's time lay outside its one point
    r.points.push_back(p);
    return r;
}

}  // namespace

TEST(RunTime, EstimateAndMeasuredTimePerMethodAndInTotal) {
    ResultsFile f;
    f.records = {timed("memcpy-peer", "gpu1", "full", 2.0, 2.5), timed("memcpy-peer", "gpu2", "confirmed", 0.5, 0.4),
                 timed("memcpy-peer", "gpu3", "promoted", 0.5, 3.0), timed("memcpy-d2d", "gpu0", "full", 1.0, 1.0)};
    const auto rows = run_time_rows(f);
    ASSERT_EQ(rows.size(), 3u);  // two methods and the total
    EXPECT_EQ(rows[0].method, "memcpy-peer");
    EXPECT_EQ(rows[0].full, 1u);
    EXPECT_EQ(rows[0].confirmed, 1u);
    EXPECT_EQ(rows[0].promoted, 1u);
    EXPECT_DOUBLE_EQ(rows[0].estimate_s, 3.0);
    EXPECT_DOUBLE_EQ(rows[0].elapsed_s, 5.9);
    EXPECT_EQ(rows[2].method, "");
    EXPECT_EQ(rows[2].records, 4u);
    EXPECT_DOUBLE_EQ(rows[2].estimate_s, 4.0);
    EXPECT_DOUBLE_EQ(rows[2].elapsed_s, 6.9);
    EXPECT_DOUBLE_EQ(rows[0].outside_points_s, 0.75 * 5.9);
    EXPECT_DOUBLE_EQ(rows[2].outside_points_s, 0.75 * 6.9);
    const std::string text = format_run_time(rows);
    EXPECT_NE(text.find("-42%"), std::string::npos) << text;  // 4.0 / 6.9 - 1
    EXPECT_NE(text.find("set-up"), std::string::npos) << text;
    EXPECT_NE(text.find("5.2 s"), std::string::npos) << text;  // 0.75 x 6.9 outside the points
    // The table says which records were confirmed and which promoted.
    const std::string table = format_summary_table(summarize(f));
    const auto line_of = [&](const std::string& pair) {
        const auto at = table.find(pair);
        return at == std::string::npos ? std::string() : table.substr(at, table.find('\n', at) - at);
    };
    EXPECT_NE(line_of("gpu0->gpu2").find("confirmed"), std::string::npos) << table;
    EXPECT_NE(line_of("gpu0->gpu3").find("PROMOTED"), std::string::npos) << table;
    EXPECT_EQ(line_of("gpu0->gpu1").find("PROMOTED"), std::string::npos) << table;
}

// Points without their own elapsed_s (files before schema 2.2) say nothing of
// the time outside them: the record adds to the measured time, not to set-up.
TEST(RunTime, SetUpCountsOnlyRecordsWhosePointsSayTheirTime) {
    ResultsFile f;
    f.records = {timed("memcpy-peer", "gpu1", "full", 2.0, 2.0), timed("memcpy-peer", "gpu2", "full", 2.0, 4.0)};
    f.records[1].points[0].elapsed_s = 0;
    const auto rows = run_time_rows(f);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_DOUBLE_EQ(rows[1].elapsed_s, 6.0);
    EXPECT_DOUBLE_EQ(rows[1].outside_points_s, 1.5);  // 0.75 x 2.0 of the first record only
}

// Confirmations measured a second time: kept (first_measurement beside them)
// or promoted after both (promotion.measured_twice; files written before the
// field say "measured twice" in the reason only).
TEST(RunTime, ConfirmationsMeasuredTwiceAreCounted) {
    ResultsFile f;
    f.records = {timed("memcpy-peer", "gpu1", "full", 2.0, 2.5), timed("memcpy-peer", "gpu2", "confirmed", 0.5, 0.4),
                 timed("memcpy-peer", "gpu3", "confirmed", 0.5, 0.8), timed("memcpy-peer", "gpu4", "promoted", 0.5, 3.0),
                 timed("memcpy-peer", "gpu5", "promoted", 0.5, 3.0), timed("memcpy-peer", "gpu6", "promoted", 0.5, 3.0),
                 timed("memcpy-peer", "gpu7", "promoted", 0.5, 3.0)};
    f.records[2].context["confirmation"] = {{"first_measurement", {{"reason", "at 1 B ..."}}}};
    f.records[3].context["promotion"] = {{"reason", "at 64 MiB ...; measured twice, the first time at 64 MiB ..."}};
    f.records[4].context["promotion"] = {{"reason", "representative memcpy-peer|gpu0|gpu1| not measured"}};
    f.records[5].context["promotion"] = {{"reason", "at 1 B ..."}, {"measured_twice", true}};
    // The field decides where it is written, whatever the reason says.
    f.records[6].context["promotion"] = {{"reason", "named gpu7 measured twice"}, {"measured_twice", false}};
    // A representative measured again beside its class's confirmations.
    f.records[0].context["recheck"] = {{"verdict", "within"}};
    // A link of a class measured twice (the second pass); with a recheck too, once.
    f.records[1].context["second_pass"] = {{"bytes", 64 << 20}, {"again_gbps", 9.0}};
    f.records[0].context["second_pass"] = {{"bytes", 64 << 20}, {"again_gbps", 9.0}};
    const auto rows = run_time_rows(f);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].measured_twice, 5u);
    EXPECT_NE(format_run_time(rows).find("(the second pass; its time in each link's)"), std::string::npos);
    EXPECT_NE(format_run_time(rows).find("twice"), std::string::npos);
}

TEST(RunTime, FilesWithoutEstimatesHaveNoSection) {
    ResultsFile f;
    f.records = {timed("memcpy-peer", "gpu1", "", 0, 1.0)};
    f.records.front().context.erase("estimate_s");
    EXPECT_TRUE(run_time_rows(f).empty());
    EXPECT_EQ(format_run_time({}), "");
}

// The run's own wall time, from its two timestamps, beside the records' sum.
TEST(RunTime, TheRunsWallTimeFromItsTimestampsUnlessResumedOrUnfinished) {
    ResultsFile f;
    f.records = {timed("memcpy-peer", "gpu1", "full", 2.0, 2.5)};
    f.meta = {{"date_utc", "2026-11-26T23:23:35Z"}, {"run", {{"ended_utc", "2026-11-26T23:26:08Z"}}}};
    ASSERT_TRUE(run_wall_s(f));
    EXPECT_EQ(*run_wall_s(f), 153.0);
    const std::string text = format_run_time(run_time_rows(f), run_wall_s(f));
    EXPECT_NE(text.find("the run took 153 s from start to end"), std::string::npos) << text;
    EXPECT_NE(text.find("its records 2.5 s"), std::string::npos) << text;
    // Across midnight and a month's end.
    f.meta = {{"date_utc", "2026-11-30T23:59:50Z"}, {"run", {{"ended_utc", "2026-12-01T00:00:10Z"}}}};
    EXPECT_EQ(*run_wall_s(f), 20.0);

    ResultsFile resumed = f;
    resumed.meta["resumed"] = nlohmann::json::array({{{"date_utc", "2026-12-01T00:05:00Z"}}});
    EXPECT_FALSE(run_wall_s(resumed)) << "records of several invocations: no one wall time";
    ResultsFile unfinished = f;
    unfinished.meta["run"]["ended_utc"] = nullptr;
    EXPECT_FALSE(run_wall_s(unfinished));
    for (const char* bad : {"2026-11-26 23:23:35", "2026-11-26T23:23:35", "x", "2026-11-26T23:23:35Z junk"}) {
        ResultsFile b = f;
        b.meta["date_utc"] = bad;
        EXPECT_FALSE(run_wall_s(b)) << bad;
    }
    ResultsFile backwards = f;
    backwards.meta["date_utc"] = "2026-12-02T00:00:00Z";
    EXPECT_FALSE(run_wall_s(backwards));
    EXPECT_EQ(format_run_time(run_time_rows(f)).find("the run took"), std::string::npos);
}
