// What summary and export say of their figures: the duplex convention, the
// coefficient of variation per point, lanes started together, and each
// method that measured nothing with its reason. Hand-made records.
#include <gtest/gtest.h>

#include "analyze/not_measured.hpp"
#include "analyze/summary.hpp"
#include "catalog/method_catalog.hpp"
#include "io/tidy_export.hpp"

namespace hwcomm {
namespace {

using analyze::SummaryRow;

SummaryRow summarize_one(const Record& r) { return analyze::summarize(r, builtin_catalog().find(r.method)); }

Point point(std::uint64_t bytes, double median_s, double cv, std::size_t n = 5) {
    Point p;
    p.bytes = bytes;
    p.verified = true;
    p.stats.n = n;
    p.stats.median = p.stats.mean = median_s;
    p.stats.cv = cv;
    p.stats.stdev = cv * median_s;
    p.bytes_per_rep = static_cast<double>(bytes);
    p.bandwidth_gbps = p.bytes_per_rep / median_s / 1e9;
    return p;
}

Record record(const std::string& method, std::map<std::string, std::string> params, std::vector<Point> points) {
    Record r;
    r.method = method, r.src = "gpu0", r.dst = "gpu1", r.params = std::move(params);
    r.key = record_key(method, r.src, r.dst, r.params);
    r.points = std::move(points);
    r.context = {{"timing_mode", "event"}};
    return r;
}

TEST(SummaryConventions, CvIsTheLargestOverPointsWithEnoughSamplesAndItsSize) {
    // 4 KiB spreads 15%, 1 GiB 2%; a point of one sample has no spread to speak of.
    const Record r = record("memcpy-peer", {{"peer", "on"}},
                            {point(4096, 2e-6, 0.15), point(1ull << 30, 2.7e-3, 0.02), point(8, 2e-6, 0.9, 1)});
    const SummaryRow row = summarize_one(r);
    ASSERT_TRUE(row.max_cv);
    EXPECT_DOUBLE_EQ(*row.max_cv, 0.15);
    EXPECT_EQ(row.max_cv_bytes, 4096u);
    const std::string table = analyze::format_summary_table({row});
    EXPECT_NE(table.find(" 15%  "), std::string::npos) << table;
    EXPECT_NE(table.find("samples spread most at 4K (cv 15%)"), std::string::npos) << table;
    // Below 10%: one decimal, and no note.
    const SummaryRow quiet = summarize_one(record("memcpy-peer", {{"peer", "on"}}, {point(1ull << 30, 2.7e-3, 0.021)}));
    const std::string quiet_table = analyze::format_summary_table({quiet});
    EXPECT_NE(quiet_table.find(" 2.1%  "), std::string::npos) << quiet_table;
    EXPECT_EQ(quiet_table.find("samples spread most"), std::string::npos) << quiet_table;
}

// A ladder point the run measured again (context.remeasured)
// is a note with the first measurement and the kept one; entries not as hwcomm
// writes them are left out, never thrown on.
TEST(SummaryConventions, APointMeasuredAgainAfterATransientIsANote) {
    Record r = record("memcpy-peer", {{"peer", "on"}}, {point(128ull << 20, 128.0 * (1 << 20) / 54.7e9, 0.01)});
    r.context["remeasured"] = nlohmann::json::array(
        {{{"bytes", 128ull << 20}, {"first_gbps", 53.8}, {"first_ci95_half_width", 0.43}, {"first_samples", 5}}});
    const std::string table = analyze::format_summary_table({summarize_one(r)});
    EXPECT_NE(table.find("measured again: 128 MiB (first 53.8 GB/s +-43%, kept 54.7)\n"),
              std::string::npos)
        << table;
    for (const nlohmann::json& bad : {nlohmann::json("x"), nlohmann::json::array({1, "y", nullptr}),
                                      nlohmann::json::array({{{"bytes", -5}}}),
                                      nlohmann::json::array({{{"bytes", "128"}, {"first_gbps", "fast"}}})}) {
        r.context["remeasured"] = bad;
        const std::string t = analyze::format_summary_table({summarize_one(r)});
        EXPECT_EQ(t.find("measured again"), std::string::npos) << bad.dump();
    }
    r.context["remeasured"] = nlohmann::json::array({{{"bytes", 4096}, {"first_gbps", "fast"}}});  // no kept point, no rate
    EXPECT_NE(analyze::format_summary_table({summarize_one(r)}).find("measured again: 4 KiB\n"),
              std::string::npos);
    // A tight dip that the second measurement repeats was the curve's own.
    r.context["remeasured"] = nlohmann::json::array(
        {{{"bytes", 128ull << 20}, {"first_gbps", 54.5}, {"first_ci95_half_width", 0.005}, {"first_samples", 9}}});
    EXPECT_NE(analyze::format_summary_table({summarize_one(r)})
                  .find("measured again: 128 MiB (first 54.5 GB/s +-0%, kept 54.7, the same: the curve's own)"),
              std::string::npos);
}

// A record whose blocking kernel timed out and was dropped (context.gate, as
// the first tma-copy-d2d record on each GPU of the default runs of 2026-11-26
// wrote it) says its samples hold the enqueue cost; a gate that held, or a
// gate entry not a string, says nothing.
TEST(SummaryConventions, ARecordTimedWithoutItsBlockingKernelSaysSo) {
    Record r = record("tma-copy-d2d", {}, {point(1, 5.53e-6, 0.02)});
    r.src = r.dst = "gpu0";
    r.context["gate"] = "dropped: the blocking kernel timed out while copies were queued";
    const std::string table = analyze::format_summary_table({summarize_one(r)});
    EXPECT_NE(table.find("timed without the blocking kernel (dropped: the blocking kernel timed out while copies "
                         "were queued): each sample holds the cost of queueing its copies"),
              std::string::npos)
        << table;
    for (const nlohmann::json& held : {nlohmann::json("blocking kernel holds the stream while copies are queued"),
                                       nlohmann::json(42), nlohmann::json::array({"dropped"})}) {
        r.context["gate"] = held;
        EXPECT_EQ(analyze::format_summary_table({summarize_one(r)}).find("without the blocking kernel"),
                  std::string::npos)
            << held.dump();
    }
}

TEST(SummaryConventions, DuplexFiguresSayTheirConventionInSummaryAndExport) {
    Point p = point(512ull << 20, 1.37e-3, 0.01);
    p.bytes_per_rep = 2.0 * (512ull << 20);
    p.bandwidth_gbps = p.bytes_per_rep / 1.37e-3 / 1e9;
    p.extras = {{"fwd_gbps", 391.0}, {"rev_gbps", 390.0}};
    const Record duplex = record("duplex-d2d", {{"peer", "on"}}, {p});
    const SummaryRow row = summarize_one(duplex);
    EXPECT_EQ(row.duplex, "sum");
    const std::string table = analyze::format_summary_table({row});
    EXPECT_NE(table.find("both directions' bytes over the time of both (the sum, nvloom's convention)"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("one direction under opposite traffic (nvbandwidth's) at the best point: fwd 391.0, rev 390.0"),
              std::string::npos)
        << table;
    // A single direction says nothing of duplex.
    EXPECT_EQ(summarize_one(record("memcpy-peer", {{"peer", "on"}}, {p})).duplex, "");

    ResultsFile f;
    f.records.push_back(duplex);
    const std::string jsonl = export_tidy({{"in.json", &f}}, ExportFormat::Jsonl);
    const auto exported = nlohmann::json::parse(jsonl.substr(0, jsonl.find('\n')));
    ASSERT_EQ(exported.at("row_kind"), "point");
    EXPECT_EQ(exported.at("duplex_convention"), "sum");
    EXPECT_EQ(exported.at("duplex_fwd_gbps"), 391.0);  // each direction under opposite traffic
    EXPECT_EQ(exported.at("duplex_rev_gbps"), 390.0);
    EXPECT_DOUBLE_EQ(exported.at("duplex_total_gbps").get<double>(), p.bandwidth_gbps);  // both over the time of both
    EXPECT_DOUBLE_EQ(exported.at("cv").get<double>(), 0.01);
}

TEST(SummaryConventions, LanesStartedTogetherSayTheAggregateIsTheirSumOverTheCommonWindow) {
    Point p = point(64ull << 20, 1e-3, 0.01);
    p.bytes_per_rep = 2.0 * (64ull << 20);
    p.bandwidth_gbps = p.bytes_per_rep / 1e-3 / 1e9;
    p.lanes = {{"gpu0->gpu1", 64ull << 20, p.stats, 70.0, {}, {}}, {"gpu1->gpu0", 64ull << 20, p.stats, 67.5, {}, {}}};
    Record r = record("transfer-set", {{"set", "ring"}}, {p});
    r.lanes = {{"gpu0->gpu1", "transfer-set", "gpu0", "gpu1", {{"executor", "ce"}}, "measured", {}},
               {"gpu1->gpu0", "transfer-set", "gpu1", "gpu0", {{"executor", "sm"}}, "measured", {}}};
    const SummaryRow row = summarize_one(r);
    EXPECT_EQ(row.lanes, 2u);
    EXPECT_DOUBLE_EQ(*row.lane_min_gbps, 67.5);
    EXPECT_DOUBLE_EQ(*row.lane_max_gbps, 70.0);
    const std::string table = analyze::format_summary_table({row});
    EXPECT_NE(table.find("2 lanes started together; large and best are every lane's bytes over the common window (their "
                         "sum); at the best point each lane 67.5..70.0 GB/s"),
              std::string::npos)
        << table;
}

TEST(MethodsWithoutData, ListedReasonsThenMethodsWhoseEveryRecordWasSkippedOrFailed) {
    ResultsFile f;
    f.meta = {{"run",
               {{"not_measured",
                 {{{"method", "memcpy-peer"}, {"why", "not applicable here: one GPU"}},
                  {{"method", "disk-read"}, {"why", "filtered out by --filter method=memcpy*"}}}}}}};
    Record skipped = record("tma-copy", {}, {});
    skipped.status = "skipped", skipped.error = "needs sm_90 (gpu0 is sm_80)";
    Record failed = record("sm-copy-d2d", {}, {point(8, 1e-6, 0)});
    failed.points[0].status = "error", failed.error = "cudaErrorIllegalAddress";
    Record ok = record("memcpy-h2d", {}, {point(8, 1e-6, 0)});
    f.records = {skipped, failed, ok};
    const auto list = analyze::methods_without_data(f);
    ASSERT_EQ(list.size(), 4u);
    EXPECT_EQ(list[0].method, "memcpy-peer");
    EXPECT_EQ(list[1].why, "filtered out by --filter method=memcpy*");
    EXPECT_EQ(list[2].method, "tma-copy");
    EXPECT_EQ(list[2].why, "every record skipped (1 record(s)): needs sm_90 (gpu0 is sm_80)");
    EXPECT_EQ(list[3].method, "sm-copy-d2d");
    EXPECT_EQ(list[3].why.rfind("every record failed (1 record(s)); first: sm-copy-d2d|gpu0|gpu1", 0), 0u) << list[3].why;
    const std::string text = analyze::format_methods_without_data(list, "#2");
    EXPECT_EQ(text.rfind("\nmethods that measured nothing in #2:\n  memcpy-peer: not applicable here: one GPU\n", 0), 0u)
        << text;
    EXPECT_EQ(analyze::format_methods_without_data({}), "");
}

}  // namespace
}  // namespace hwcomm
