// Schema 2: version handling, keys this build does not know survive a
// read-write, optional statistics, provenance, lanes, axes, metrics, duplicate
// keys and node-qualified ids.
#include <gtest/gtest.h>

#include <cmath>

#include "io/endpoint_ids.hpp"
#include "io/results_json.hpp"

using namespace hwcomm;
using nlohmann::json;

namespace {

Record one_record(const std::string& src, const std::string& dst) {
    Record r;
    r.method = "memcpy-d2d";
    r.src = src;
    r.dst = dst;
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.provenance = {{"kind", "measured"}, {"tool", "hwcomm"}, {"revision", "abc1234"}};
    Point p;
    p.bytes = 1 << 20;
    p.verified = true;
    p.stop_reason = "converged";
    p.samples_s = {1e-5, 2e-5};
    p.stats = SampleStats{2, 1e-5, 1.25e-5, 1.5e-5, 1.75e-5, 2e-5, 1.5e-5, 7e-6, 0.47, 1e-5, 2e-5};
    p.bytes_per_rep = 1 << 20;
    p.bandwidth_gbps = (1 << 20) / 1.5e-5 / 1e9;
    p.peak_bandwidth_gbps = (1 << 20) / 1e-5 / 1e9;
    r.points.push_back(p);
    return r;
}

json file_json() {
    ResultsFile f;
    f.meta = {{"host", "vm"}};
    f.topology = {{"schema", "hwcomm-topology"}};
    f.records.push_back(one_record("gpu0", "gpu1"));
    return results_to_json(f);
}

}  // namespace

TEST(ResultsV2, WritesVersionStringAndReadsEvery2x) {
    json j = file_json();
    EXPECT_EQ(j.at("version"), "2.2");
    for (const char* v : {"2", "2.0", "2.1", "2.17"}) {
        j["version"] = v;
        EXPECT_NO_THROW(results_from_json(j)) << v;
    }
    for (const char* v : {"3.0", "1.5", "2.x", "20"}) {
        j["version"] = v;
        EXPECT_THROW(results_from_json(j), std::runtime_error) << v;
    }
    j.erase("version");
    EXPECT_THROW(results_from_json(j), std::runtime_error);
    j["schema_version"] = 2;  // versions after 1 are strings
    EXPECT_THROW(results_from_json(j), std::runtime_error);
}

TEST(ResultsV2, UnknownKeysSurviveAtEveryLevel) {
    json j = file_json();
    j["from_the_future"] = {1, 2, 3};
    j["meta"]["cluster"] = "alps";
    j["records"][0]["energy_j"] = 4.5;
    j["records"][0]["points"][0]["power_w"] = 700;
    j["records"][0]["points"][0]["stats"]["p99"] = 3e-5;  // stats keep only known fields
    const json back = results_to_json(results_from_json(j));
    EXPECT_EQ(back.at("from_the_future"), json({1, 2, 3}));
    EXPECT_EQ(back.at("meta").at("cluster"), "alps");
    EXPECT_EQ(back.at("records")[0].at("energy_j"), 4.5);
    EXPECT_EQ(back.at("records")[0].at("points")[0].at("power_w"), 700);
    // A key this build writes itself is not duplicated or overridden by a kept one.
    EXPECT_EQ(back.at("version"), "2.2");
}

TEST(ResultsV2, ImportedAggregateKeepsOnlyTheStatisticsItHas) {
    json j = file_json();
    json& p = j["records"][0]["points"][0];
    j["records"][0]["provenance"] = {{"kind", "imported"}, {"tool", "comm|scope"}, {"file", "scope-h2d.json"}};
    p.erase("samples_s");
    p.erase("peak_bandwidth_gbps");
    p["stats"] = {{"n", 5}, {"mean", 2e-5}, {"median", 1.9e-5}, {"stdev", 1e-6}};
    const ResultsFile f = results_from_json(j);
    const SampleStats& s = f.records[0].points[0].stats;
    EXPECT_EQ(s.n, 5u);
    EXPECT_DOUBLE_EQ(s.median, 1.9e-5);
    EXPECT_TRUE(std::isnan(s.min));
    EXPECT_TRUE(std::isnan(s.ci95_low));
    EXPECT_TRUE(std::isnan(f.records[0].points[0].peak_bandwidth_gbps));
    const json back = results_to_json(f);
    const json& bp = back["records"][0]["points"][0];
    EXPECT_EQ(bp.at("stats"), p.at("stats"));  // absent fields stay absent, no nulls
    EXPECT_FALSE(bp.contains("peak_bandwidth_gbps"));
    EXPECT_FALSE(bp.contains("samples_s"));
    EXPECT_EQ(back["records"][0].at("provenance").at("tool"), "comm|scope");
}

TEST(ResultsV2, LanesAxesAndMetricsRoundTrip) {
    ResultsFile f;
    Record r = one_record("gpu0", "gpu1");
    r.lanes = {LaneSpec{"gpu0->gpu1", "memcpy-d2d", "gpu0", "gpu1", {}, "measured"},
               LaneSpec{"gpu1->gpu0", "memcpy-d2d", "gpu1", "gpu0", {}, "load"}};
    Point& p = r.points[0];
    p.axes = {{"stride", 128}, {"pattern", "random"}};
    p.metrics = {{"latency", Metric{412.5, "cycles"}}, {"ops", Metric{1e6, "count"}}};
    LanePoint lane;
    lane.label = "gpu0->gpu1";
    lane.bytes_per_rep = 1 << 20;
    lane.stats = p.stats;
    lane.bandwidth_gbps = 69.9;
    lane.samples_s = p.samples_s;
    p.lanes = {lane};
    f.records.push_back(r);
    const json j = results_to_json(f);
    const ResultsFile back = results_from_json(j);
    const Record& b = back.records[0];
    ASSERT_EQ(b.lanes.size(), 2u);
    EXPECT_EQ(b.lanes[1].role, "load");
    EXPECT_EQ(b.points[0].axes.at("stride"), 128);
    EXPECT_EQ(b.points[0].axes.at("pattern"), "random");
    EXPECT_DOUBLE_EQ(b.points[0].metrics.at("latency").value, 412.5);
    EXPECT_EQ(b.points[0].metrics.at("latency").unit, "cycles");
    ASSERT_EQ(b.points[0].lanes.size(), 1u);
    EXPECT_DOUBLE_EQ(b.points[0].lanes[0].bandwidth_gbps, 69.9);
    EXPECT_EQ(results_to_json(back), j);
}

TEST(ResultsV2, DuplicateRecordKeysAreRejected) {
    json j = file_json();
    j["records"].push_back(j["records"][0]);
    try {
        results_from_json(j);
        FAIL() << "accepted a duplicate key";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "duplicate record key 'memcpy-d2d|gpu0|gpu1|'");
    }
}

TEST(EndpointIds, QualifyAndSplit) {
    const std::vector<std::string> nodes{"nodeA", "nodeB"};
    EXPECT_EQ(qualify_endpoint_id("nodeA", "gpu0"), "nodeA:gpu0");
    EXPECT_EQ(split_endpoint_id("nodeB:gpu1", nodes).node, "nodeB");
    EXPECT_EQ(split_endpoint_id("nodeB:gpu1", nodes).local, "gpu1");
    // A plain id with colons of its own is not mistaken for a qualified one.
    EXPECT_EQ(split_endpoint_id("pci:0000:00:06.0", nodes).node, "");
    EXPECT_EQ(split_endpoint_id("nodeA:pci:0000:00:06.0", nodes).local, "pci:0000:00:06.0");
}

TEST(EndpointIds, FilesOfSeveralNodesNeedQualifiedIds) {
    ResultsFile f = results_from_json(file_json());
    qualify_results(f, "nodeA");
    EXPECT_EQ(f.records[0].key, "memcpy-d2d|nodeA:gpu0|nodeA:gpu1|");
    EXPECT_EQ(meta_nodes(f.meta), std::vector<std::string>{"nodeA"});
    f.records.push_back(one_record("nodeB:gpu0", "nodeB:gpu1"));
    set_meta_nodes(f.meta, {"nodeA", "nodeB"});
    EXPECT_EQ(results_from_json(results_to_json(f)).records.size(), 2u);
    f.records.push_back(one_record("gpu2", "nodeB:gpu1"));
    EXPECT_THROW(results_from_json(results_to_json(f)), std::runtime_error);
}

TEST(ResultsV2, HowARecordWasMeasuredAndEachPointsTimeSurviveARewrite) {
    ResultsFile f;
    f.records.push_back(one_record("gpu0", "gpu1"));
    f.records.back().measured_as = "promoted";
    f.records.back().points.front().elapsed_s = 0.25;
    const json j = results_to_json(f);
    EXPECT_EQ(j.at("records")[0].at("measured_as"), "promoted");
    EXPECT_EQ(j.at("records")[0].at("points")[0].at("elapsed_s"), 0.25);
    const ResultsFile back = results_from_json(j);
    EXPECT_EQ(back.records.front().measured_as, "promoted");
    EXPECT_EQ(back.records.front().points.front().elapsed_s, 0.25);
    // Older files say neither: nothing is made up.
    const json old = results_to_json(results_from_json(file_json()));
    EXPECT_FALSE(old.at("records")[0].contains("measured_as"));
    EXPECT_FALSE(old.at("records")[0].at("points")[0].contains("elapsed_s"));
}
