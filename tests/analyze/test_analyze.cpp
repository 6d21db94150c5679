// Summary rows and fidelity verdicts computed from hand-made results.
#include <gtest/gtest.h>

#include "analyze/compare.hpp"
#include "analyze/fidelity.hpp"
#include "analyze/study.hpp"
#include "analyze/summary.hpp"
#include "catalog/method_catalog.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

// A record's summary row with its method's built-in catalog row.
SummaryRow summarize(const Record& r) { return analyze::summarize(r, builtin_catalog().find(r.method)); }

Point point(std::uint64_t bytes, double median_s, double bytes_per_rep = 0) {
    Point p;
    p.bytes = bytes;
    p.verified = true;
    p.stats.n = 5;
    p.stats.median = median_s;
    p.bytes_per_rep = bytes_per_rep > 0 ? bytes_per_rep : static_cast<double>(bytes);
    p.bandwidth_gbps = p.bytes_per_rep / median_s / 1e9;
    return p;
}

Record record(const std::string& method, const std::string& src, const std::string& dst,
              std::map<std::string, std::string> params, std::vector<Point> points, const std::string& timing = "event") {
    Record r;
    r.method = method;
    r.src = src;
    r.dst = dst;
    r.params = std::move(params);
    r.key = record_key(method, src, dst, r.params);
    r.points = std::move(points);
    r.context = {{"timing_mode", timing}};
    return r;
}

}  // namespace

TEST(Summary, PeakIsTheBestMedianBandwidthAndLatencyTheSmallestSizesMedian) {
    // 4 B in 2 us, 8 B in 2.1 us, 1 GiB in 2.72 ms (394.8 GB/s), 256 MiB at 390 GB/s.
    Record r = record("memcpy-peer", "gpu0", "gpu1", {{"peer", "on"}},
                      {point(8, 2.1e-6), point(4, 2.0e-6), point(1ull << 30, 2.72e-3),
                       point(256ull << 20, (256ull << 20) / 390e9)});
    const SummaryRow row = summarize(r);
    ASSERT_TRUE(row.peak_gbps);
    EXPECT_NEAR(*row.peak_gbps, (1ull << 30) / 2.72e-3 / 1e9, 1e-9);
    EXPECT_EQ(row.peak_bytes, 1ull << 30);
    ASSERT_TRUE(row.small_latency_us);
    EXPECT_NEAR(*row.small_latency_us, 2.0, 1e-9);
    EXPECT_EQ(row.small_bytes, 4u);
    EXPECT_NEAR(*row.latency_8b_us, 2.1, 1e-9);
    EXPECT_EQ(row.params, "peer=on");
    EXPECT_EQ(row.status, "ok");
    const std::string table = format_summary_table({row});
    EXPECT_NE(table.find("memcpy-peer"), std::string::npos);
    EXPECT_NE(table.find("gpu0->gpu1"), std::string::npos);
    EXPECT_NE(table.find("394.8 @1G"), std::string::npos);
    EXPECT_NE(table.find("2us@4B"), std::string::npos);  // time per transfer at the smallest size
}

TEST(Summary, FailedPointsAndRecordErrorsShowInStatusAndNumaIsNotRepeated) {
    Point bad;
    bad.bytes = 1 << 20;
    bad.status = "error";
    bad.error = "verification failed";
    Record r = record("memcpy-h2d", "numa0", "gpu0", {{"host_mem", "pinned"}, {"numa", "0"}},
                      {point(4096, 10e-6), bad});
    r.status = "error";
    r.error = "size 1048576: verification failed";
    const SummaryRow row = summarize(r);
    EXPECT_EQ(row.params, "host_mem=pinned");
    EXPECT_EQ(row.status, "error: size 1048576: verification failed");
    EXPECT_EQ(row.peak_bytes, 4096u);

    Record empty = record("memcpy-d2h", "gpu0", "numa0", {}, {});
    const SummaryRow none = summarize(empty);
    EXPECT_FALSE(none.peak_gbps);
    EXPECT_NE(format_summary_table({none}).find(" - "), std::string::npos);
}

TEST(Summary, DuplexRowCarriesEachDirectionAtThePeak) {
    Point p = point(512ull << 20, 1.37e-3, 2.0 * (512ull << 20));
    p.extras = {{"fwd_gbps", 391.0}, {"rev_gbps", 390.0}};
    const SummaryRow row = summarize(record("duplex-d2d", "gpu0", "gpu1", {{"peer", "on"}}, {p}));
    EXPECT_NEAR(*row.peak_gbps, 2.0 * (512ull << 20) / 1.37e-3 / 1e9, 1e-9);
    EXPECT_DOUBLE_EQ(*row.fwd_gbps, 391.0);
    EXPECT_DOUBLE_EQ(*row.rev_gbps, 390.0);
}

TEST(Fidelity, JudgeWithinBeatsMissesForBandwidthAndLatency) {
    double dev = 0;
    EXPECT_EQ(judge(55.0, 55.5, 55.5, 0.02, false, &dev), Verdict::Within);
    EXPECT_NEAR(dev, -0.5 / 55.5, 1e-12);
    EXPECT_EQ(judge(54.3, 55.5, 55.5, 0.02, false, &dev), Verdict::Misses);  // -2.16%
    EXPECT_EQ(judge(57.0, 55.5, 55.5, 0.02, false, &dev), Verdict::Beats);   // +2.7%
    EXPECT_EQ(judge(395.0, 394, 396, 0.02, false, &dev), Verdict::Within);
    EXPECT_DOUBLE_EQ(dev, 0.0);  // inside the range
    EXPECT_EQ(judge(1.5, 2.0, 2.0, 0.02, true, &dev), Verdict::Beats);       // faster than 2 us
    EXPECT_NEAR(dev, -0.25, 1e-12);  // the number is 25% below the figure
    EXPECT_EQ(judge(2.5, 2.0, 2.0, 0.02, true, &dev), Verdict::Misses);
    EXPECT_NEAR(dev, 0.25, 1e-12);  // a latency 25% above the figure: positive, and a miss
}

TEST(Fidelity, BestMatchingRecordPreferredTimingAndMissingData) {
    const nlohmann::json doc = {
        {"schema", "hwcomm-targets"},
        {"version", 1},
        {"tolerance", 0.02},
        {"targets",
         {{{"id", "peer"}, {"method", "memcpy-peer"}, {"params", {{"peer", "on"}}}, {"metric", "peak_gbps"},
           {"value", 395}, {"range", {394, 396}}},
          {{"id", "pageable"}, {"method", "memcpy-h2d"}, {"params", {{"host_mem", "pageable"}}},
           {"metric", "gbps_at_bytes"}, {"bytes", 1 << 30}, {"timing", "wall"}, {"value", 9.3}},
          {{"id", "lat"}, {"method", "memcpy-peer"}, {"params", {{"peer", "on"}}}, {"metric", "small_latency_us"},
           {"value", 2.0}},
          {{"id", "duplex"}, {"method", "duplex-h2d"}, {"metric", "extra_peak:fwd_gbps"}, {"value", 50}},
          {{"id", "absent"}, {"method", "memcpy-d2h"}, {"metric", "peak_gbps"}, {"value", 55.4}}}}};
    const TargetsFile targets = targets_from_json(doc);
    ASSERT_EQ(targets.targets.size(), 5u);

    ResultsFile results;
    results.records.push_back(record("memcpy-peer", "gpu0", "gpu1", {{"peer", "on"}},
                                     {point(4, 2.4e-6), point(1ull << 30, (1ull << 30) / 380e9)}));
    results.records.push_back(record("memcpy-peer", "gpu1", "gpu0", {{"peer", "on"}},
                                     {point(4, 1.9e-6), point(1ull << 30, (1ull << 30) / 393e9)}));
    results.records.push_back(record("memcpy-peer", "gpu1", "gpu0", {{"peer", "off"}},
                                     {point(1ull << 30, (1ull << 30) / 500e9)}));  // other params: ignored
    results.records.push_back(record("memcpy-h2d", "numa0", "gpu0", {{"host_mem", "pageable"}, {"numa", "0"}},
                                     {point(1ull << 30, (1ull << 30) / 12e9)}, "event"));
    results.records.push_back(record("memcpy-h2d", "numa0", "gpu0", {{"host_mem", "pageable"}, {"numa", "0"}},
                                     {point(1ull << 30, (1ull << 30) / 9.2e9)}, "wall"));
    Point d = point(64 << 20, 1e-3, 2.0 * (64 << 20));
    d.extras = {{"fwd_gbps", 50.5}};
    results.records.push_back(record("duplex-h2d", "numa0", "gpu0", {{"host_mem", "pinned"}}, {d}));

    const auto rows = compare(results, targets);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_NEAR(*rows[0].measured, 393.0, 1e-9);  // best of the two directions
    EXPECT_EQ(rows[0].record_key, "memcpy-peer|gpu1|gpu0|peer=on");
    EXPECT_EQ(rows[0].verdict, Verdict::Within);
    EXPECT_NEAR(*rows[1].measured, 9.2, 1e-9);    // the wall-clock record, not the faster event one
    EXPECT_TRUE(rows[1].note.empty());
    EXPECT_NEAR(*rows[2].measured, 1.9, 1e-9);    // lowest latency
    EXPECT_EQ(rows[2].verdict, Verdict::Beats);
    EXPECT_NEAR(*rows[3].measured, 50.5, 1e-9);
    EXPECT_EQ(rows[4].verdict, Verdict::NoData);
    const std::string text = format_comparisons(rows, targets);
    EXPECT_NE(text.find("no data"), std::string::npos);
    EXPECT_NE(text.find("394-396 GB/s"), std::string::npos);
}

TEST(Fidelity, FallsBackToOtherTimingWithANote) {
    TargetsFile t;
    t.targets.push_back(Target{.id = "p", .label = "p", .method = "memcpy-d2h", .metric = "gbps_at_bytes",
                               .timing = "wall", .value = 18.5, .low = 18.5, .high = 18.5, .bytes = 1024});
    ResultsFile r;
    r.records.push_back(record("memcpy-d2h", "gpu0", "numa0", {}, {point(1024, 1024 / 18.4e9)}, "event"));
    const auto rows = compare(r, t);
    ASSERT_TRUE(rows[0].measured);
    EXPECT_NE(rows[0].note.find("measured in event mode"), std::string::npos);
}

TEST(Fidelity, ProjectTargetsFileParsesAndForeignFilesAreRejected) {
    const TargetsFile f = load_targets_file(std::string(HWCOMM_DOCS) + "/targets-h200x2.json");
    EXPECT_EQ(f.targets.size(), 10u);
    EXPECT_DOUBLE_EQ(f.tolerance, 0.02);
    EXPECT_THROW(targets_from_json({{"schema", "hwcomm-results"}}), std::runtime_error);
    EXPECT_THROW(targets_from_json({{"schema", "hwcomm-targets"},
                                    {"version", 1},
                                    {"targets", {{{"id", "x"}, {"method", "m"}, {"metric", "bogus"}, {"value", 1}}}}}),
                 std::runtime_error);
}

TEST(Fidelity, TheTargetsMachineIsComparedWithTheResultsGpus) {
    const TargetsFile f = load_targets_file(std::string(HWCOMM_DOCS) + "/targets-h200x2.json");
    EXPECT_EQ(f.gpu_count, 2);
    EXPECT_EQ(f.gpu_model, "NVIDIA H200");
    ResultsFile r;
    r.topology = {{"vertices", {{{"kind", "gpu"}, {"gpu", {{"model", "NVIDIA H200"}}}},
                                {{"kind", "gpu"}, {"gpu", {{"model", "NVIDIA H200"}}}}}}};
    EXPECT_TRUE(check_machine(r, f).same);
    r.topology["vertices"].push_back({{"kind", "gpu"}, {"gpu", {{"model", "NVIDIA H200"}}}});
    const MachineCheck other = check_machine(r, f);
    EXPECT_FALSE(other.same);
    EXPECT_EQ(other.results, "3x NVIDIA H200");
    EXPECT_TRUE(fidelity_failed({}, other));
    Comparison miss;
    miss.verdict = Verdict::Misses;
    EXPECT_TRUE(fidelity_failed({miss}, MachineCheck{}));
    Comparison within;
    within.verdict = Verdict::Within;
    Comparison no_data;
    no_data.verdict = Verdict::NoData;
    EXPECT_FALSE(fidelity_failed({within, no_data}, MachineCheck{}));
    EXPECT_TRUE(fidelity_failed({no_data, no_data}, MachineCheck{}));  // nothing compared is no evidence (issue 25)
    EXPECT_TRUE(check_machine(ResultsFile{}, f).same);  // no topology: nothing to compare
    // A CPU-only machine is another machine, not an unknown one.
    ResultsFile cpu_only;
    cpu_only.topology = {{"vertices", {{{"kind", "numa"}}}}};
    const MachineCheck none = check_machine(cpu_only, f);
    EXPECT_FALSE(none.same);
    EXPECT_EQ(none.results, "no GPU");
}

TEST(Compare, RunOptionsThatDifferAreSaidBeforeTheRecords) {
    // A --quick run against a default one changes every record (issue 25).
    ResultsFile quick, full;
    quick.meta = {{"options", {{"quick", true}, {"max_size", 67108864}, {"filters", {"method=cpu-read"}}}}};
    full.meta = {{"options", {{"quick", false}, {"max_size", 1073741824}, {"filters", nlohmann::json::array()}}}};
    quick.records = full.records = {record("cpu-read", "numa0", "numa0", {}, {point(1 << 20, 1e-4)})};
    const RecordsComparison c = compare_results(quick, full, 0.05);
    ASSERT_EQ(c.option_differences.size(), 2u);  // filters only choose records
    EXPECT_EQ(c.option_differences[0], "max_size: 67108864 vs 1073741824");
    EXPECT_EQ(c.option_differences[1], "quick: true vs false");
    EXPECT_NE(format_comparison(c, "a", "b").find("options differ in quick: true vs false"), std::string::npos);
    EXPECT_TRUE(compare_results(quick, quick, 0.05).option_differences.empty());
}

TEST(Analysis, ACpuOnlyInputSaysNothingWasComparedInsteadOfRowsOfNoData) {
    ResultsFile cpu;
    cpu.records = {record("cpu-read", "numa0", "numa0", {}, {point(64 << 20, 1e-3)})};
    const Analysis a = analyze_results({{"cpu.json", cpu}});
    const std::string text = format_analysis_text(a);
    EXPECT_NE(text.find(std::to_string(a.cells.size()) + " cells of the study's tables, all no-data"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("affinity|cpu-gpu"), std::string::npos) << text;
    EXPECT_NE(text.find("none looked for: nothing the rule compares"), std::string::npos) << text;
    EXPECT_NE(format_analysis_markdown(a).find("all no-data"), std::string::npos);
}
