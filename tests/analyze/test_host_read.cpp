// summary's line on the run's host read probe (meta.run.host_read): the
// range of the visits, steady or moved, a skipped probe, and files that say
// nothing or something malformed.
#include <gtest/gtest.h>

#include "analyze/host_read.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;
using nlohmann::json;

namespace {

json meta_with(const json& host_read) { return {{"run", {{"host_read", host_read}}}}; }

ResultsFile file_with(const json& meta) {
    ResultsFile f;
    f.meta = meta;
    return f;
}

ResultsFile file_of(const json& host_read) { return file_with(meta_with(host_read)); }

Record host_record(const std::string& method, const std::string& src, const std::string& dst, const json& rates) {
    Record r;
    r.method = method;
    r.src = src;
    r.dst = dst;
    r.key = record_key(r.method, r.src, r.dst, {});
    r.context["host_read_gbps"] = rates;
    return r;
}

json probe(const std::vector<double>& rates) {
    json visits = json::array();
    for (std::size_t i = 0; i < rates.size(); ++i) visits.push_back({{"t_s", 2.0 * i}, {"gbps", rates[i]}});
    return {{"numa", 0}, {"bytes", 600 << 20}, {"threads", 16}, {"reads_per_visit", 3}, {"visits", visits}};
}

}  // namespace

TEST(HostRead, TheRangeIsOverTheVisitsWithTheirMedian) {
    const auto r = host_read_range(meta_with(probe({90, 76, 88, 91, 87})));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->visits, 5u);
    EXPECT_DOUBLE_EQ(r->low_gbps, 76);
    EXPECT_DOUBLE_EQ(r->high_gbps, 91);
    EXPECT_DOUBLE_EQ(r->median_gbps, 88);
    EXPECT_DOUBLE_EQ(r->span_s, 8);
    EXPECT_EQ(r->bytes, std::uint64_t{600} << 20);
    EXPECT_EQ(r->threads, 16u);
    EXPECT_NEAR(r->spread(), 15.0 / 88, 1e-12);
    // An even count: the median is the mean of the middle two.
    EXPECT_DOUBLE_EQ(host_read_range(meta_with(probe({10, 20, 30, 40})))->median_gbps, 25);
}

TEST(HostRead, SummarySaysWhetherTheHostMoved) {
    const std::string moved = format_host_read(file_of(probe({90, 76, 88, 91, 87})));
    EXPECT_NE(moved.find("5 visits over 8.0 s, 600 MiB by 16 threads): 76.0-91.0 GB/s, median 88.0, 17% apart"),
              std::string::npos)
        << moved;
    EXPECT_NE(moved.find("moved while this run measured"), std::string::npos) << moved;
    const std::string steady = format_host_read(file_of(probe({90, 89, 91, 90})));
    EXPECT_NE(steady.find("2% apart: steady"), std::string::npos) << steady;
    EXPECT_EQ(steady.find("moved"), std::string::npos) << steady;
    const std::string once = format_host_read(file_of(probe({90})));
    EXPECT_NE(once.find("(1 visit over 0.0 s, 600 MiB by 16 threads): 90.0 GB/s"), std::string::npos) << once;
    EXPECT_EQ(format_host_read(file_of({{"skipped", "no NUMA node has cores"}})),
              "host memory read between records: not probed (no NUMA node has cores)\n");
}

TEST(HostRead, FilesWithoutItOrWithMalformedPartsSayNothingAndNeverThrow) {
    for (const json& meta : {json(), json::array(), json{{"run", 3}}, json{{"run", json::object()}},
                             meta_with(7), meta_with(json::object()), meta_with({{"visits", "many"}}),
                             meta_with({{"visits", json::array({1, "x", json::array(), json{{"gbps", "fast"}},
                                                                json{{"gbps", -5}}, json{{"gbps", 0}}})}}),
                             meta_with({{"skipped", 42}})}) {
        EXPECT_FALSE(host_read_range(meta)) << meta;
        EXPECT_EQ(format_host_read(file_with(meta)), "") << meta;
    }
    // Malformed visits beside good ones are left out; odd sizes and counts are not said.
    json mixed = probe({50, 60});
    mixed["visits"].push_back({{"gbps", "x"}, {"t_s", 9}});
    mixed["visits"].push_back({{"t_s", "late"}, {"gbps", 55}});
    mixed["bytes"] = -1;
    mixed["threads"] = "all";
    const auto r = host_read_range(meta_with(mixed));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->visits, 3u);
    EXPECT_EQ(r->bytes, 0u);
    EXPECT_EQ(r->threads, 0u);
    EXPECT_DOUBLE_EQ(r->span_s, 2);
    EXPECT_NE(format_host_read(file_of(mixed)).find("(3 visits over 2.0 s): 50.0-60.0 GB/s"), std::string::npos);
}

// The records of host memory measured while the probe read 10% or more away
// from the run's median are named with how far; device-only records and
// records without visits are not.
TEST(HostRead, RecordsMeasuredWhileTheHostReadSlowlyAreNamed) {
    ResultsFile f = file_of(probe({100, 100, 100, 80, 120}));
    f.records.push_back(host_record("cpu-copy", "numa0", "numa0", json::array({80, 84})));   // -18%
    f.records.push_back(host_record("memcpy-d2h", "gpu0", "numa0", json::array({100, 95})));  // -2.5%: within
    f.records.push_back(host_record("memcpy-d2d", "gpu0", "gpu0", json::array({60})));        // no host memory
    f.records.push_back(host_record("cpu-read", "numa0", "numa0", json::array({120})));       // +20%
    f.records.push_back(host_record("cpu-write", "numa0", "numa0", json::array({"x", -1})));  // nothing usable
    const auto off = records_off_host_median(f);
    ASSERT_EQ(off.size(), 2u);
    EXPECT_EQ(off[0].key, f.records[0].key);
    EXPECT_NEAR(off[0].ratio, 0.82, 1e-12);
    EXPECT_EQ(off[1].key, f.records[3].key);
    EXPECT_NEAR(off[1].ratio, 1.2, 1e-12);
    const std::string text = format_host_read(f);
    EXPECT_NE(text.find("10% or more away from that median (the visits around each): " + f.records[0].key +
                        " (-18%), " + f.records[3].key + " (+20%)\n"),
              std::string::npos)
        << text;
    // Without the probe's visits nothing is named.
    f.meta = json::object();
    EXPECT_TRUE(records_off_host_median(f).empty());
}

// A file of several nodes (--mpi): each record against its own node's
// series (cluster.nodes[].meta), its ends qualified with the node's name.
TEST(HostRead, InAFileOfSeveralNodesEachRecordIsJudgedByItsOwnNodesSeries) {
    ResultsFile f = file_of(probe({100, 100, 100}));  // rank 0's, as the file's meta
    f.unknown["cluster"] = {{"nodes", json::array({{{"name", "n0"}, {"meta", meta_with(probe({100, 100, 100}))}},
                                                   {{"name", "n1"}, {"meta", meta_with(probe({50, 50, 50}))}}})}};
    Record a = host_record("cpu-read", "n0:numa0", "n0:numa0", json::array({80}));  // -20% of n0's 100
    a.context["node"] = "n0";
    Record b = host_record("cpu-read", "n1:numa0", "n1:numa0", json::array({50}));  // n1's own median
    b.context["node"] = "n1";
    Record c = host_record("cpu-read", "n1:numa0", "n1:numa0", json::array({60}));  // +20% of n1's 50
    c.context["node"] = "n1";
    c.key += "x";
    f.records = {a, b, c};
    const auto off = records_off_host_median(f);
    ASSERT_EQ(off.size(), 2u);
    EXPECT_EQ(off[0].key, a.key);
    EXPECT_NEAR(off[0].ratio, 0.8, 1e-12);
    EXPECT_EQ(off[1].key, c.key);
    EXPECT_NEAR(off[1].ratio, 1.2, 1e-12);
    const std::string text = format_host_read(f);
    EXPECT_NE(text.find("host memory read between records on n0 (3 visits"), std::string::npos) << text;
    EXPECT_NE(text.find("host memory read between records on n1 (3 visits"), std::string::npos) << text;
    EXPECT_NE(text.find("away from its node's median"), std::string::npos) << text;
    // Malformed cluster sections fall back to the file's meta, never throw.
    for (const json& junk : {json(1), json{{"nodes", 3}}, json{{"nodes", json::array({1, json{{"name", 2}}})}}}) {
        f.unknown["cluster"] = junk;
        EXPECT_NO_THROW((void)format_host_read(f));
        EXPECT_EQ(records_off_host_median(f).size(), 3u);  // 80, 50 and 60 against the file's 100
    }
}

// The words for what the probe's ratio around two records says of the
// difference between them (class outliers, identical links that differ).
TEST(HostRead, TheWordingSaysHowMuchOfADifferenceTheHostCouldExplain) {
    EXPECT_EQ(host_read_wording(1.03, 0.20),
              ": the host read as fast around it (the probe visits at most every 2 s: faster changes escape it)");
    EXPECT_EQ(host_read_wording(0.90, 0.20), ": the host moved the other way");
    EXPECT_EQ(host_read_wording(1.16, 0.17), ": the difference may be the host's, not the link's");
    EXPECT_EQ(host_read_wording(1.11, 0.48), ": the host explains part of the difference at most");
    EXPECT_EQ(host_read_wording(0.94, -0.221), ": the host explains part of the difference at most");
}
