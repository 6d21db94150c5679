// Bandwidth against load, read from a synthetic results file (no GPU).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "analyze/load_table.hpp"
#include "measure/statistics.hpp"
#include "io/results_file.hpp"
#include "catalog/method_catalog.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

Point point(std::uint64_t bytes, double gbps, double load_gbps = -1, double covered = 1) {
    Point p;
    p.bytes = bytes;
    p.verified = true;
    p.bytes_per_rep = static_cast<double>(bytes);
    p.stats.median = static_cast<double>(bytes) / gbps / 1e9;
    p.samples_s = {p.stats.median};
    p.bandwidth_gbps = gbps;
    if (load_gbps >= 0) {
        p.extras["load_gbps"] = load_gbps;
        p.extras["load_covered"] = covered;
    }
    return p;
}

// A priority record of the route, points to be added.
Record priority_record(const std::string& src, const std::string& dst, const std::map<std::string, std::string>& params) {
    Record r;
    r.method = "priority";
    r.src = src;
    r.dst = dst;
    r.params = params;
    r.key = record_key(r.method, r.src, r.dst, r.params);
    return r;
}

Record under_load(const std::string& dst, int loads, const std::string& with, std::vector<Point> points) {
    Record r;
    r.method = "under-load";
    r.src = "numa0";
    r.dst = dst;
    r.params = {{"loads", std::to_string(loads)}, {"with", with}};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.points = std::move(points);
    return r;
}

// numa0 -> gpu0 alone and with 1, 2, 3 others loading numa0's host side (the
// shape of the 4x H200 machine's all-to-host figures in docs/measurement-core.md).
ResultsFile synthetic() {
    ResultsFile f;
    f.records.push_back(under_load("gpu0", 3, "numa0->gpu1,numa0->gpu2,numa0->gpu3",
                                   {point(64 << 20, 36.0, 110.0), point(1 << 30, 37.0, 111.0)}));
    f.records.push_back(under_load("gpu0", 0, "none", {point(64 << 20, 52.0), point(1 << 30, 55.0)}));
    f.records.push_back(under_load("gpu0", 1, "numa0->gpu1", {point(64 << 20, 50.0, 50.0), point(1 << 30, 52.0, 52.0)}));
    // The 2-load record lacks 1 GiB: the table compares at 64 MiB.
    f.records.push_back(under_load("gpu0", 2, "numa0->gpu1,numa0->gpu2", {point(64 << 20, 40.0, 80.0, 0)}));
    Record other = under_load("gpu1", 0, "none", {point(1 << 30, 54.0)});
    f.records.push_back(other);
    Record prio = priority_record("numa0", "gpu0", {});
    for (const char* level : {"alone", "equal", "high"})
        for (std::uint64_t b : {std::uint64_t{4096}, std::uint64_t{256} << 20}) {
            Point p = point(b, std::string(level) == "alone" ? 55.0 : 27.5);
            p.axes["priority"] = level;
            prio.points.push_back(p);
        }
    f.records.push_back(prio);
    // The same route on copy kernels (engine=sm): the high-priority transfer waits less.
    Record sm = priority_record("numa0", "gpu0", {{"engine", "sm"}});
    sm.context["headline"] = {{"metric", "completion time"}, {"why", "a wait behind the load is part of it"}};
    for (const auto& [level, gbps_small] : std::vector<std::pair<std::string, double>>{
             {"alone", 0.4096}, {"equal", 0.004096}, {"high", 0.2048}})
        for (std::uint64_t b : {std::uint64_t{4096}, std::uint64_t{256} << 20}) {
            Point p = point(b, b == 4096 ? gbps_small : (level == "alone" ? 50.0 : 30.0));
            p.axes["priority"] = level;
            sm.points.push_back(p);
        }
    f.records.push_back(sm);
    return f;
}

}  // namespace

TEST(LoadTable, BandwidthAgainstLoadCountAsFractionOfAlone) {
    const auto dir = std::filesystem::temp_directory_path() / ("hwcomm-load-table-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "results.json").string();
    save_results(path, synthetic());
    const ResultsFile f = load_results_file(path);
    std::filesystem::remove_all(dir);

    const auto tables = load_tables(f.records, builtin_catalog());
    ASSERT_EQ(tables.size(), 2u);
    const LoadTable& t = tables[0];
    EXPECT_EQ(t.dst, "gpu0");
    EXPECT_EQ(t.bytes, 64u << 20);  // the largest size all four records measured
    ASSERT_EQ(t.rows.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(t.rows[i].loads, i);
    EXPECT_DOUBLE_EQ(t.rows[0].fraction_of_alone, 1.0);
    EXPECT_DOUBLE_EQ(t.rows[1].fraction_of_alone, 50.0 / 52.0);
    EXPECT_DOUBLE_EQ(t.rows[3].fraction_of_alone, 36.0 / 52.0);
    EXPECT_DOUBLE_EQ(t.rows[3].load_gbps, 110.0);
    EXPECT_FALSE(t.rows[2].load_covered);
    EXPECT_EQ(tables[1].bytes, 1u << 30);

    const auto prio = priority_tables(f.records, builtin_catalog());
    ASSERT_EQ(prio.size(), 2u);
    ASSERT_EQ(prio[0].rows.size(), 3u);
    EXPECT_EQ(prio[0].engine, "ce");  // a file from before engines were named: the copy engines
    EXPECT_EQ(prio[0].rows[2].priority, "high");
    EXPECT_EQ(prio[0].rows[2].small_bytes, 4096u);
    EXPECT_DOUBLE_EQ(prio[0].rows[2].large_gbps, 27.5);
    // copy kernels: 4 KiB alone 10 us, equal 1000 us, high 20 us: waits of 990 and 10 us.
    EXPECT_EQ(prio[1].engine, "sm");
    EXPECT_NEAR(prio[1].rows[1].small_wait_seconds, 990e-6, 1e-9);
    EXPECT_NEAR(prio[1].rows[2].small_wait_seconds, 10e-6, 1e-9);
    EXPECT_DOUBLE_EQ(prio[1].rows[0].small_wait_seconds, 0);

    const std::string text = format_load_tables(tables, prio);
    if (std::getenv("HWCOMM_PRINT_LOAD_TABLE")) std::cout << text;
    EXPECT_NE(text.find("numa0 -> gpu0 at 64 MiB"), std::string::npos) << text;
    EXPECT_NE(text.find("0.692"), std::string::npos) << text;  // 36 / 52
    EXPECT_NE(text.find("load ended inside the window"), std::string::npos) << text;
    EXPECT_NE(text.find("high:"), std::string::npos) << text;
    // The copy engines' table says they ignore priority and prints no loaded GB/s; the kernels' does.
    EXPECT_NE(text.find("copy engines do not honour stream priorities"), std::string::npos) << text;
    EXPECT_NE(text.find("equal: 0.1 us at 4 KiB (wait 0.1 us; waited in 0 of 1 samples)\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("27.5 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("high: 20.0 us at 4 KiB (wait 10.0 us; waited in 0 of 1 samples), 30.0 GB/s at 256 MiB"),
              std::string::npos)
        << text;
    const auto j = load_tables_to_json(tables, prio);
    EXPECT_EQ(j["under_load"].size(), 2u);
    EXPECT_EQ(j["under_load"][0]["rows"][3]["loads"].get<int>(), 3);
}

// A loaded transfer starts at once or waits for the load, so its times come in
// two modes and the median lands in either: nvidia-h200-x2 at 730d24c,
// priority engine=sm gpu0->gpu1 at 4 KiB. Split by mode, the high-priority
// transfer waits less than the equal one when it waits (52 against 80 us).
TEST(LoadTable, PriorityWaitsAreSplitFromTheSamplesThatDidNotWait) {
    Record r = priority_record("gpu0", "gpu1", {{"engine", "sm"}});
    const std::map<std::string, std::vector<double>> us{
        {"alone", {5.4, 5.5, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6}},
        {"equal", {6.3, 6.3, 6.3, 6.5, 6.7, 77.7, 78.7, 79.9, 81.3, 87.0}},
        {"high", {6.3, 6.3, 6.3, 6.3, 6.3, 6.4, 6.4, 6.4, 6.4, 6.5, 6.5, 46.5, 51.7, 52.5}}};
    for (const auto& [level, times] : us) {
        Point p;
        p.bytes = 4096;
        p.status = "ok";
        for (double t : times) p.samples_s.push_back(t * 1e-6);
        p.stats = compute_stats(p.samples_s);
        p.bytes_per_rep = 4096;
        p.bandwidth_gbps = 4096 / p.stats.median / 1e9;
        p.axes["priority"] = level;
        r.points.push_back(p);
    }
    const auto prio = priority_tables({r}, builtin_catalog());
    ASSERT_EQ(prio.size(), 1u);
    ASSERT_EQ(prio[0].rows.size(), 3u);
    const PriorityRow &equal = prio[0].rows[1], &high = prio[0].rows[2];
    EXPECT_EQ(equal.small_waited, 5u);
    EXPECT_EQ(equal.small_samples, 10u);
    EXPECT_EQ(high.small_waited, 3u);
    EXPECT_NEAR(equal.wait_when_waited_seconds, (79.9 - 5.6) * 1e-6, 1e-9);
    EXPECT_NEAR(high.wait_when_waited_seconds, (51.7 - 5.6) * 1e-6, 1e-9);
    EXPECT_LT(high.wait_when_waited_seconds, equal.wait_when_waited_seconds);
    EXPECT_EQ(prio[0].rows[0].small_waited, 0u);
    const std::string text = format_load_tables({}, prio);
    EXPECT_NE(text.find("waited in 5 of 10 samples, 74.3 us when it did"), std::string::npos) << text;
    EXPECT_EQ(load_tables_to_json({}, prio)["priority"][0]["rows"][2]["small_waited"].get<int>(), 3);
}

TEST(LoadTable, NoUnderLoadRecordsNoTable) {
    ResultsFile f;
    Record r = under_load("gpu0", 0, "none", {point(1 << 20, 10)});
    r.method = "memcpy-h2d";
    f.records.push_back(r);
    EXPECT_TRUE(load_tables(f.records, builtin_catalog()).empty());
    EXPECT_EQ(format_load_tables({}, {}), "");
}
