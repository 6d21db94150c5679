// Version 1 files (the committed examples of the 2x and 4x H200 machines)
// load, migrated: provenance from meta.git_revision, duplex extras kept.
#include <gtest/gtest.h>

#include <cmath>

#include "io/results_file.hpp"
#include "io/results_json.hpp"

using namespace hwcomm;

TEST(ResultsV1, TwoGpuExampleLoadsMigrated) {
    const ResultsFile f = load_results_file(HWCOMM_DOCS "/examples/h200x2/results-default.json.gz");
    ASSERT_EQ(f.records.size(), 43u);
    EXPECT_EQ(f.meta.at("migrated_from_version"), 1);
    EXPECT_EQ(f.meta.at("nodes"), nlohmann::json({f.meta.at("host")}));
    for (const auto& r : f.records) {
        EXPECT_EQ(r.provenance.at("kind"), "measured") << r.key;
        EXPECT_EQ(r.provenance.at("tool"), "hwcomm");
        EXPECT_EQ(r.provenance.at("revision"), "f38c90b");
        EXPECT_TRUE(r.lanes.empty());  // absent lanes: the record's own pair
    }
    const Record* cpu = f.find("cpu-read|numa0|numa0|");
    ASSERT_NE(cpu, nullptr);
    EXPECT_NEAR(cpu->points.back().bandwidth_gbps, 178.739, 1e-3);
    EXPECT_EQ(cpu->points.back().stats.n, cpu->points.back().samples_s.size());
    const Record* duplex = f.find("duplex-d2d|gpu0|gpu1|peer=on");
    ASSERT_NE(duplex, nullptr);
    for (const char* extra : {"fwd_gbps", "rev_gbps", "fwd_s", "rev_s", "start_skew_s", "stop_skew_s"})
        EXPECT_TRUE(duplex->points.back().extras.count(extra)) << extra;
}

TEST(ResultsV1, CompressedFourGpuExampleLoads) {
#ifndef HWCOMM_HAVE_ZLIB
    GTEST_SKIP() << "built without zlib";
#endif
    const ResultsFile f = load_results_file(HWCOMM_DOCS "/examples/h200x4/results-default.json.gz");
    EXPECT_EQ(f.records.size(), 137u);
    EXPECT_EQ(f.records.front().key, "cpu-read|numa0|numa0|");
    EXPECT_EQ(f.records.front().provenance.at("revision"), "f38c90b");
}

TEST(ResultsV1, RewrittenAsVersion2WithTheSameNumbers) {
    const ResultsFile v1 = load_results_file(HWCOMM_DOCS "/examples/h200x2/results-default.json.gz");
    const nlohmann::json j = results_to_json(v1);
    EXPECT_EQ(j.at("version"), "2.2");
    EXPECT_FALSE(j.contains("schema_version"));
    const ResultsFile v2 = results_from_json(j);
    ASSERT_EQ(v2.records.size(), v1.records.size());
    for (std::size_t i = 0; i < v1.records.size(); ++i) {
        ASSERT_EQ(v2.records[i].points.size(), v1.records[i].points.size());
        for (std::size_t k = 0; k < v1.records[i].points.size(); ++k) {
            const Point &a = v1.records[i].points[k], &b = v2.records[i].points[k];
            EXPECT_EQ(a.bandwidth_gbps, b.bandwidth_gbps);
            EXPECT_EQ(a.peak_bandwidth_gbps, b.peak_bandwidth_gbps);
            EXPECT_EQ(a.samples_s, b.samples_s);
            EXPECT_EQ(a.extras, b.extras);
        }
    }
    EXPECT_EQ(results_to_json(v2), j);  // stable from here on
}
