// The report's GPU memory section on the 2x H200 gpumem example
// (docs/examples/h200x2/gpumem.json.gz): what each chart's data holds,
// checked against the record it was drawn from.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analyze/gpumem_facts.hpp"
#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/html/edge_measures.hpp"
#include "report/html/html_page.hpp"
#include "report/html/report_gpumem.hpp"

namespace hwcomm::report_html {
namespace {

using nlohmann::json;

ReportInput example(const std::string& file) {
    ReportInput input;
    input.name = file;
    input.results = load_results_file(HWCOMM_EXAMPLES "/h200x2/" + file);
    input.graph = graph_from_json(input.results.topology);
    return input;
}

const Record& record_of(const ReportInput& input, const std::string& method) {
    for (const Record& r : input.results.records)
        if (r.method == method) return r;
    throw std::runtime_error("no " + method);
}

double metric(const Record& r, const json& axes, const std::string& name) {
    for (const Point& p : r.points) {
        bool same = true;
        for (const auto& [k, v] : axes.items()) same = same && analyze::axis_of(p, k) == v.get<double>();
        if (same) return analyze::metric_of(p, name).value();
    }
    throw std::runtime_error("no point");
}

TEST(ReportGpumem, GpumemRecordsLeaveTheSizeChartsForTheirOwnSection) {
    const auto model = report_model({example("gpumem.json.gz")}, {});
    EXPECT_TRUE(model["curves"].empty());  // 6 records, none a bandwidth-against-size curve
    EXPECT_TRUE(model["groups"].empty());
    EXPECT_TRUE(model["heatmaps"].empty());
    const json& g = model["gpumem"];
    EXPECT_EQ(g["timelines"].size(), 1u);
    EXPECT_EQ(g["occupancy"].size(), 1u);
    EXPECT_EQ(g["stride"].size(), 1u);
    ASSERT_EQ(g["latency"].size(), 1u);  // one source GPU: local, peer and host on one chart
    EXPECT_EQ(g["latency"][0]["series"].size(), 3u);
    EXPECT_EQ(g["latency"][0]["series"][0]["memory"], "local");

    // Overlaid with a file of copies: its 43 curves and 15 charts are untouched.
    const auto both = report_model({example("results-default.json.gz"), example("gpumem.json.gz")}, {});
    EXPECT_EQ(both["curves"].size(), 43u);
    EXPECT_EQ(both["groups"].size(), 15u);
    EXPECT_EQ(both["gpumem"]["occupancy"][0]["title"], "gpumem.json.gz: occupancy against read bandwidth, gpu0");
}

TEST(ReportGpumem, TimelineHasOneLinePerWarpCappedAndSmRelative) {
    const ReportInput input = example("gpumem.json.gz");
    const json charts = timeline_charts(record_of(input, "gpumem-timeline"));
    ASSERT_EQ(charts.size(), 10u);  // 2 element sizes x 5 warps per block
    const json& first = charts[0];
    EXPECT_EQ(first["element_bytes"], 4);
    EXPECT_EQ(first["warps_per_block"], 2);
    EXPECT_EQ(first["kept"], 2048);
    EXPECT_EQ(first["drawn"], kMaxTimelineWarps);
    EXPECT_EQ(first["start"].size(), kMaxTimelineWarps);
    EXPECT_EQ(first["stop"].size(), kMaxTimelineWarps);
    EXPECT_EQ(first["start"][0], 0);  // the SM's earliest warp starts at 0
    for (std::size_t i = 0; i < kMaxTimelineWarps; ++i) {
        EXPECT_GE(first["stop"][i].get<double>(), first["start"][i].get<double>());
        if (i) {
            EXPECT_GE(first["start"][i].get<double>(), first["start"][i - 1].get<double>());
        }
        EXPECT_EQ(first["sm"][i], 0);
    }
    // Two warps per block: half the warps are their block's warp 0 (black).
    const auto black = std::count(first["first"].begin(), first["first"].end(), json(1));
    EXPECT_NEAR(static_cast<double>(black), kMaxTimelineWarps / 2.0, 4);
    EXPECT_EQ(first["warp_latency_cycles_median"], 841.0);
    EXPECT_NEAR(first["sm_clock_mhz"].get<double>(), 1977.58, 0.01);
    EXPECT_EQ(charts[5]["element_bytes"], 16);
    EXPECT_EQ(charts[5]["kept"], 1030);
}

TEST(ReportGpumem, OccupancyBoundsAndTheoreticalAreTheRecordsMetrics) {
    const ReportInput input = example("gpumem.json.gz");
    const Record& r = record_of(input, "gpumem-occupancy");
    const json occupancy = report_model({input}, {})["gpumem"]["occupancy"][0];
    EXPECT_EQ(occupancy["theoretical"].get<double>(), metric(r, {{"warps_per_sm", 1}, {"ilp", 1}, {"element_bytes", 4}},
                                                            "theoretical_dram_gbps"));
    ASSERT_EQ(occupancy["series"].size(), 9u);
    std::size_t points = 0;
    for (const json& s : occupancy["series"]) {
        for (std::size_t k = 0; k < s["warps"].size(); ++k, ++points) {
            const json axes = {{"warps_per_sm", s["warps"][k]}, {"ilp", s["ilp"]}, {"element_bytes", s["element_bytes"]}};
            EXPECT_EQ(s["bound"][k].get<double>(), metric(r, axes, "littles_law_bound_gbps"));
            EXPECT_EQ(s["latency_bound"][k].get<int>(), metric(r, axes, "latency_bound"));
        }
    }
    EXPECT_EQ(points, r.points.size());  // 81: every point drawn
    EXPECT_EQ(occupancy["series"][8]["label"], "float4 \xC3\x97 4");
    EXPECT_EQ(occupancy["series"][8]["bandwidth_bound_from"], 8);
    EXPECT_NEAR(occupancy["peak"].get<double>(), 3711.8, 0.1);
}

TEST(ReportGpumem, StrideSectorsAndNcuWhenMeasured) {
    ReportInput input = example("gpumem.json.gz");
    json stride = report_model({input}, {})["gpumem"]["stride"][0];
    ASSERT_EQ(stride["series"].size(), 2u);
    EXPECT_FALSE(stride["ncu"].get<bool>());
    EXPECT_FALSE(stride["series"][0].contains("sectors_ncu"));
    EXPECT_EQ(stride["series"][0]["sectors_theory"], json({4, 8, 16, 32, 32, 32, 32, 32}));
    EXPECT_EQ(stride["series"][1]["sectors_theory"], json({16, 32, 32, 32, 32, 32, 32, 32}));
    // Expected effective GB/s at stride 8 for floats: the stride-1 rate with 8x the sectors.
    EXPECT_NEAR(stride["series"][0]["expected_gbps"][3].get<double>(), 1788.04 / 8, 0.01);

    for (Record& r : input.results.records)
        if (r.method == "gpumem-stride")
            for (Point& p : r.points) p.metrics["sectors_ncu"] = {4.0 * (p.bytes / 4 / 32), "sectors"};
    stride = report_model({input}, {})["gpumem"]["stride"][0];
    EXPECT_TRUE(stride["ncu"].get<bool>());
    EXPECT_EQ(stride["series"][0]["sectors_ncu"][0], 4.0);
}

TEST(ReportGpumem, LatencyPlateausAndThePageSection) {
    const ReportInput input = example("gpumem.json.gz");
    const json latency = report_model({input}, {})["gpumem"]["latency"][0];
    ASSERT_EQ(latency["plateaus"].size(), 3u);
    EXPECT_EQ(latency["plateaus"][0]["name"], "L1");
    EXPECT_NEAR(latency["plateaus"][1]["ns"].get<double>(), 144.1, 0.05);
    EXPECT_NEAR(latency["plateaus"][2]["ns"].get<double>(), 339.65, 0.1);
    EXPECT_EQ(latency["series"][0]["bytes"].size(), 10u);

    const std::string page = render_report_html({input}, {});
    EXPECT_NE(page.find("<section id=\"gpumem\">"), std::string::npos);
    EXPECT_NE(page.find("hwcommDrawGpumem"), std::string::npos);
    EXPECT_EQ(render_report_html({example("results-default.json.gz")}, {}).find("<section id=\"gpumem\">"),
              std::string::npos);
}

// Host and peer chases from several SMs carry their nearest and farthest SM
// per size for the chart's whiskers; one-SM records (the H200 example) none.
TEST(ReportGpumem, ARemoteChaseFromSeveralSmsCarriesItsNearestAndFarthestSm) {
    ReportInput input = example("gpumem.json.gz");
    const json before = report_model({input}, {})["gpumem"]["latency"][0]["series"];
    for (const json& s : before) EXPECT_FALSE(s.contains("nearest_sm")) << s["label"];
    for (Record& r : input.results.records) {
        if (r.method != "gpumem-latency" || r.params.count("memory") == 0 || r.params.at("memory") != "peer") continue;
        for (Point& p : r.points)
            if (p.bytes >= (1u << 20)) {
                p.metrics["latency_ns_nearest_sm"] = {795.0, "ns"};
                p.metrics["latency_ns_farthest_sm"] = {858.0, "ns"};
            }
    }
    const json series = report_model({input}, {})["gpumem"]["latency"][0]["series"];
    std::size_t with = 0;
    for (const json& s : series) {
        if (!s.contains("nearest_sm")) continue;
        ++with;
        EXPECT_EQ(s["memory"], "peer");
        ASSERT_EQ(s["nearest_sm"].size(), s["bytes"].size());
        for (std::size_t k = 0; k < s["bytes"].size(); ++k) {
            if (s["bytes"][k].get<std::uint64_t>() < (1u << 20)) {
                EXPECT_TRUE(s["nearest_sm"][k].is_null());
            } else {
                EXPECT_EQ(s["nearest_sm"][k], 795.0);
                EXPECT_EQ(s["farthest_sm"][k], 858.0);
            }
        }
    }
    EXPECT_EQ(with, 1u);
}

TEST(ReportGpumem, PointerChasesDoNotColourTheMachinesEdges) {
    // gpumem-latency crosses NVLink and PCIe at 8 bytes per load: no measure of those links.
    const ReportInput input = example("gpumem.json.gz");
    EXPECT_TRUE(measured_edges(input.graph, input.results).empty());
}

}  // namespace
}  // namespace hwcomm::report_html
