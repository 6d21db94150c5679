// End to end: hwcomm list, run and export on this machine and on a fixture.
#include <gtest/gtest.h>

#include <set>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

TEST(CliList, TwoSocketFixtureHasFourCpuReadPairs) {
    Scratch s("list");
    const Result r = run_hwcomm(s, "list --all --input " HWCOMM_FIXTURES "/hwloc/24em64t-2n6c2t-pci.xml");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto at = r.out.find("cpu-read:");
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("applies to 4 pair(s)", at), r.out.find("applies to", at));
    for (const char* pair : {"numa0 -> numa0", "numa0 -> numa1", "numa1 -> numa0", "numa1 -> numa1"})
        EXPECT_NE(r.out.find(pair, at), std::string::npos) << pair;
    EXPECT_NE(r.out.find("numa0 -> numa1: cpu-read cpu-write memcpy cpu-copy cpu-triad cpu-latency cpu-loaded-latency "
                         "cpu-bandwidth-mix"),
              std::string::npos)
        << r.out;
}

TEST(CliRun, QuickRunWritesAValidResultsFileSilently) {
    Scratch s("run");
    const Result r = run_hwcomm(s, "run --quick --max-size 64K --filter method=cpu-read --filter src=numa0 -o out.json");
    ASSERT_EQ(r.code, 0) << r.err;
    // Not a terminal: no progress line, but one log line per finished record.
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("] cpu-read numa0->numa0: peak "), std::string::npos) << r.err;
    const auto doc = read_json(s / "out.json");
    EXPECT_EQ(doc.at("schema"), "hwcomm-results");
    EXPECT_EQ(doc.at("version"), "2.2");
    const auto& meta = doc.at("meta");
    for (const char* k : {"tool_version", "git_revision", "command_line", "host", "date_utc", "kernel", "cpu_model", "options"})
        EXPECT_TRUE(meta.contains(k)) << k;
    EXPECT_EQ(meta.at("units").at("bandwidth"), "GB/s = 1e9 bytes/s");
    EXPECT_EQ(meta.at("command_line").at(1), "run");
    EXPECT_EQ(doc.at("topology").at("schema"), "hwcomm-topology");
    // The host read probe: visited before the first record and after the last; summary says its range.
    const auto& host_read = meta.at("run").at("host_read");
    ASSERT_TRUE(host_read.contains("visits")) << host_read;
    EXPECT_GE(host_read.at("visits").size(), 2u);
    for (const auto& v : host_read.at("visits")) EXPECT_GT(v.at("gbps").get<double>(), 0) << v;
    for (const auto& rec : doc.at("records")) EXPECT_FALSE(rec.at("context").at("host_read_gbps").empty()) << rec.at("key");
    const Result summary = run_hwcomm(s, "summary out.json");
    EXPECT_NE(summary.out.find("host memory read between records ("), std::string::npos) << summary.out;
    const auto& records = doc.at("records");
    ASSERT_GE(records.size(), 1u);
    for (const auto& rec : records) {
        EXPECT_EQ(rec.at("method"), "cpu-read");
        EXPECT_EQ(rec.at("src"), "numa0");
        EXPECT_EQ(rec.at("status"), "ok") << rec.value("error", "");
        EXPECT_TRUE(rec.at("context").at("placement_verified").get<bool>());
        const auto& pts = rec.at("points");
        ASSERT_EQ(pts.size(), 3u);  // --quick: 4 KiB, 16 KiB, 64 KiB
        EXPECT_EQ(pts.at(0).at("bytes"), 4096);
        EXPECT_EQ(pts.at(2).at("bytes"), 65536);
        for (const auto& p : pts) {
            EXPECT_TRUE(p.at("verified").get<bool>());
            const double median = p.at("stats").at("median").get<double>();
            EXPECT_NEAR(p.at("bandwidth_gbps").get<double>(), p.at("bytes").get<double>() / median / 1e9, 1e-9);
            EXPECT_GE(p.at("stats").at("n").get<int>(), 1);
            EXPECT_EQ(p.at("samples_s").size(), p.at("stats").at("n").get<std::size_t>());
        }
    }
}

TEST(CliExport, CsvHasOneRowPerPoint) {
    Scratch s("export");
    ASSERT_EQ(run_hwcomm(s, "run --quick --max-size 16K --filter method=memcpy -o r.json").code, 0);
    const auto doc = read_json(s / "r.json");
    std::size_t points = 0;
    for (const auto& rec : doc.at("records")) points += rec.at("points").size();
    ASSERT_GT(points, 0u);
    const Result r = run_hwcomm(s, "export --csv r.json -o r.csv");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(s / "r.csv");
    EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), points + 1);
    EXPECT_EQ(csv.rfind("method,src,dst,params,bytes,", 0), 0u);
    EXPECT_NE(csv.find("memcpy,numa0,numa0,threads=single,4096,ok,true,"), std::string::npos);
    // An existing -o file is not overwritten without --force.
    const Result again = run_hwcomm(s, "export --csv r.json -o r.csv");
    EXPECT_EQ(again.code, 2);
    EXPECT_EQ(slurp(s / "r.csv"), csv);
}

// --smt is a method option the CPU methods declare once: run and list take it
// from there, the results file keeps it, the sessions see it.
TEST(CliRun, ADeclaredMethodOptionReachesHelpListFileAndSession) {
    Scratch s("declared");
    const Result help = run_hwcomm(s, "run --help");
    EXPECT_NE(help.out.find("Method options:"), std::string::npos) << help.out;
    const Result list = run_hwcomm(s, "list");
    const auto at = list.out.find("memcpy:");
    ASSERT_NE(at, std::string::npos);
    EXPECT_LT(list.out.find("option --smt (flag)", at), list.out.find("applies to", at));
    const Result r = run_hwcomm(s, "run --quick --max-size 64K --smt --filter method=memcpy -o out.json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = read_json(s / "out.json");
    EXPECT_EQ(doc.at("meta").at("options").at("method_options").at("smt"), "true");
    EXPECT_EQ(doc.at("records").at(0).at("context").at("binding").at("smt"), true);
    EXPECT_EQ(run_hwcomm(s, "run --quick --smt=maybe -o bad.json").code, 2);
}
