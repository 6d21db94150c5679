#include <gtest/gtest.h>

#include <cmath>

#include "core/results.hpp"
#include "io/csv_export.hpp"
#include "io/results_json.hpp"

using namespace hwcomm;
using nlohmann::json;

namespace {

ResultsFile sample_file() {
    ResultsFile f;
    f.meta = {{"host", "h"}, {"units", {{"bandwidth", "GB/s = 1e9 bytes/s"}}}};
    f.topology = {{"schema", "hwcomm-topology"}};
    Record r;
    r.method = "cpu-read";
    r.src = "numa0";
    r.dst = "numa1";
    r.params = {{"b", "2"}, {"a", "x,y"}};
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.context = {{"placement_verified", true}};
    Point p;
    p.bytes = 4096;
    p.verified = true;
    p.stop_reason = "converged";
    p.samples_s = {1e-6, 2e-6, 3e-6};
    p.stats = SampleStats{3, 1e-6, 1.5e-6, 2e-6, 2.5e-6, 3e-6, 2e-6, 1e-6, 0.5, 1e-6, 3e-6};
    p.bytes_per_rep = 4096;
    p.bandwidth_gbps = 4096 / 2e-6 / 1e9;
    p.peak_bandwidth_gbps = 4096 / 1e-6 / 1e9;
    p.extras = {{"skew_s", 1e-7}};
    p.best_variant = "2";
    p.variants = {VariantResult{"1", p.stats, 1.0, "time_budget", {4e-6}}, VariantResult{"2", p.stats, 2.048, "converged", p.samples_s}};
    r.points.push_back(p);
    Point err;
    err.bytes = 8192;
    err.status = "error";
    err.error = "verification failed";
    r.points.push_back(err);
    f.records.push_back(r);
    Record failed;
    failed.method = "memcpy";
    failed.src = failed.dst = "numa0";
    failed.key = record_key("memcpy", "numa0", "numa0", {});
    failed.status = "error";
    failed.error = "prepare: no memory";
    f.records.push_back(failed);
    return f;
}

}  // namespace

TEST(ResultsSchema, KeyFormat) {
    EXPECT_EQ(record_key("memcpy", "numa0", "numa1", {{"threads", "multi"}, {"a", "1"}}), "memcpy|numa0|numa1|a=1,threads=multi");
    EXPECT_EQ(record_key("cpu-read", "numa0", "numa0", {}), "cpu-read|numa0|numa0|");
}

TEST(ResultsSchema, RoundTripKeepsEveryField) {
    const ResultsFile f = sample_file();
    const json j = results_to_json(f);
    EXPECT_EQ(j.at("schema"), "hwcomm-results");
    EXPECT_EQ(j.at("version"), "2.2");
    const json& p = j.at("records").at(0).at("points").at(0);
    for (const char* field : {"bytes", "status", "verified", "stop_reason", "samples_s", "stats", "bandwidth_gbps",
                              "peak_bandwidth_gbps", "bytes_per_rep", "extras", "best_variant", "variants"})
        EXPECT_TRUE(p.contains(field)) << field;
    for (const char* field : {"n", "min", "q1", "median", "q3", "max", "mean", "stdev", "cv", "ci95_low", "ci95_high"})
        EXPECT_TRUE(p.at("stats").contains(field)) << field;
    EXPECT_FALSE(j.at("records").at(0).at("points").at(1).contains("stats"));  // an error point has none

    const ResultsFile back = results_from_json(json::parse(j.dump()));
    EXPECT_EQ(results_to_json(back), j);
    ASSERT_EQ(back.records.size(), 2u);
    const Point& bp = back.records[0].points[0];
    EXPECT_EQ(bp.variants.size(), 2u);
    EXPECT_EQ(bp.variants[1].stop_reason, "converged");
    EXPECT_DOUBLE_EQ(bp.stats.q3, 2.5e-6);
    EXPECT_EQ(back.records[0].params.at("a"), "x,y");
    EXPECT_EQ(back.records[1].error, "prepare: no memory");
    EXPECT_NE(back.find("memcpy|numa0|numa0|"), nullptr);
}

TEST(ResultsSchema, RejectsOtherDocuments) {
    json j = results_to_json(sample_file());
    json other = j;
    other["schema"] = "hwcomm-topology";
    EXPECT_THROW(results_from_json(other), std::runtime_error);
    other = j;
    other["version"] = "3.0";
    EXPECT_THROW(results_from_json(other), std::runtime_error);
    other = j;
    other["records"][0]["key"] = "tampered";
    EXPECT_THROW(results_from_json(other), std::runtime_error);
    other = j;
    other["records"][0]["points"][0].erase("bytes");
    EXPECT_THROW(results_from_json(other), std::runtime_error);
    EXPECT_THROW(results_from_json(json::array()), std::runtime_error);
}

TEST(CsvExport, OneRowPerPoint) {
    const std::string csv = results_to_csv(sample_file());
    std::vector<std::string> lines;
    std::string::size_type start = 0, nl;
    while ((nl = csv.find('\n', start)) != std::string::npos) {
        lines.push_back(csv.substr(start, nl - start));
        start = nl + 1;
    }
    ASSERT_EQ(lines.size(), 3u);  // header + 2 points (the failed record has none)
    EXPECT_EQ(lines[0],
              "method,src,dst,params,bytes,status,verified,stop_reason,n,min_s,q1_s,median_s,q3_s,max_s,mean_s,"
              "stdev_s,cv,ci95_low_s,ci95_high_s,bytes_per_rep,bandwidth_gbps,peak_bandwidth_gbps,best_variant,error");
    EXPECT_EQ(lines[1].substr(0, 50), "cpu-read,numa0,numa1,\"a=x,y;b=2\",4096,ok,true,conv");
    EXPECT_NE(lines[1].find(",2e-06,"), std::string::npos);    // median_s
    EXPECT_NE(lines[1].find(",2.048,4.096,2,"), std::string::npos);  // bandwidth, peak, best variant
    EXPECT_EQ(lines[2].substr(0, 44), "cpu-read,numa0,numa1,\"a=x,y;b=2\",8192,error,");
}

TEST(CsvExport, AbsentStatisticsAreEmptyFields) {
    ResultsFile f;
    Record r;
    r.method = "memcpy-h2d";
    r.src = "numa0";
    r.dst = "gpu0";
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.provenance = {{"kind", "imported"}, {"tool", "comm|scope"}, {"file", "x.json"}};
    Point p;
    p.bytes = 1024;
    const double nan = std::nan("");
    p.stats = SampleStats{5, nan, nan, 2e-6, nan, nan, 2.1e-6, nan, nan, nan, nan};
    p.bytes_per_rep = 1024;
    p.bandwidth_gbps = 1024 / 2e-6 / 1e9;
    p.peak_bandwidth_gbps = nan;
    r.points.push_back(p);
    f.records.push_back(r);
    const std::string csv = results_to_csv(f);
    EXPECT_EQ(csv.find("nan"), std::string::npos) << csv;
    // n, then min, q1 absent, median, q3, max absent, mean, then stdev..ci95_high absent.
    EXPECT_NE(csv.find(",5,,,2e-06,,,2.1e-06,,,,,1024,0.512,,"), std::string::npos) << csv;
}
