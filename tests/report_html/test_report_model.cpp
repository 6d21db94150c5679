// The report's data model on the 2x H200 example: curves, comparison groups,
// small-transfer charts, heatmaps, bands, and the page around them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/html/html_page.hpp"
#include "report/html/report_model.hpp"
#include "analyze/peer_records.hpp"

namespace hwcomm::report_html {
namespace {

ReportInput h200x2() {
    ReportInput input;
    input.name = "results-default.json";
    input.results = load_results_file(HWCOMM_EXAMPLES "/h200x2/results-default.json.gz");
    input.graph = graph_from_json(input.results.topology);
    return input;
}

const nlohmann::json* group_titled(const nlohmann::json& groups, const std::string& title) {
    for (const auto& g : groups)
        if (g["title"] == title) return &g;
    return nullptr;
}

TEST(ReportModel, OneCurvePerRecordAndTheStudysGroups) {
    const auto model = report_model({h200x2()}, {});
    EXPECT_EQ(model["curves"].size(), 43u);
    EXPECT_EQ(model["groups"].size(), 15u);
    EXPECT_EQ(model["small"].size(), 14u);     // one per method
    // (method, params) with at least two pairs; copies within a GPU join the peer on/off matrices.
    EXPECT_EQ(model["heatmaps"].size(), 17u);
    EXPECT_EQ(model["files"][0]["vertices"], 15);

    // Peer on vs off, copy engine vs SM copy: one chart per GPU pair.
    const auto* d2d = group_titled(model["groups"], "d2d: gpu0 \xE2\x86\x92 gpu1");
    ASSERT_NE(d2d, nullptr);
    // memcpy-d2d and memcpy-peer, peer on and off; sm-copy-d2d (pull) and sm-copy-d2d-push.
    EXPECT_EQ((*d2d)["curves"].size(), 6u);
    // Pinned vs pageable vs write-combined vs registered, and the SM copy, host to gpu0.
    const auto* h2d = group_titled(model["groups"], "h2d: host \xE2\x86\x92 gpu0");
    ASSERT_NE(h2d, nullptr);
    EXPECT_EQ((*h2d)["curves"].size(), 5u);
    const auto* within = group_titled(model["groups"], "d2d: within each device");
    ASSERT_NE(within, nullptr);
    EXPECT_EQ((*within)["curves"].size(), 2u);
    for (const auto& map : model["heatmaps"])
        if (map["title"] == "memcpy-d2d (peer=on)") {
            EXPECT_EQ(map["cells"].size(), 4u);  // 2 pairs + 2 diagonal
        }
    EXPECT_NE((*h2d)["caption"].get<std::string>().find("host_mem: pageable vs pinned vs registered vs wc"),
              std::string::npos);
}

// The run facts carry the run's wall time when its timestamps give it.
TEST(ReportModel, RunFactsSayTheWallTimeOfAnUnresumedRun) {
    ReportInput input = h200x2();
    input.results.meta["date_utc"] = "2026-11-26T23:23:35Z";
    input.results.meta["run"] = {{"ended_utc", "2026-11-26T23:26:08Z"}, {"finished", true}};
    input.results.meta.erase("resumed");
    const auto model = report_model({input}, {});
    bool said = false;
    for (const auto& row : model["files"][0]["run"])
        if (row[0] == "Wall time") said = row[1] == "153 s from start to end";
    EXPECT_TRUE(said) << model["files"][0]["run"].dump();
    input.results.meta["resumed"] = nlohmann::json::array({{{"date_utc", "2026-11-27T00:00:00Z"}}});
    const auto resumed = report_model({input}, {});  // kept: a loop over a temporary's member would dangle
    for (const auto& row : resumed["files"][0]["run"]) EXPECT_NE(row[0], "Wall time");
}

TEST(ReportModel, AnalysisCellsLinkToTheirCurves) {
    const auto model = report_model({h200x2()}, {});
    const auto& analysis = model["analysis"];
    ASSERT_FALSE(analysis.contains("error")) << analysis["error"];
    EXPECT_EQ(analysis["cells"].size(), 28u);  // the study's 24 plus write-combined host memory
    std::size_t linked = 0;
    for (const auto& cell : analysis["cells"]) {
        linked += !cell["curves"].empty();
        for (const auto& id : cell["curves"]) EXPECT_LT(id.get<std::size_t>(), model["curves"].size());
    }
    EXPECT_GT(linked, 0u);
    for (const auto& e : analysis["efficiency"]) EXPECT_EQ(e["curves"].size(), 1u) << e["key"];
}

// A class measured twice whose links spread no more than one of them moved:
// the cell says why it is "no" before what it compared.
TEST(ReportModel, ACellWithinOneLinksRepeatSaysSo) {
    ReportInput input;
    input.name = "dgx1";
    input.results = test::nvlink_class({9.0, 10.0, 10.5, 11.0}, {10.8, 9.2, 10.0, 9.4});
    input.graph = graph_from_json(input.results.topology);
    const auto model = report_model({input}, {});
    std::size_t within = 0;
    for (const auto& cell : model["analysis"]["cells"]) {
        const std::string reason = cell.value("reason", "");
        if (reason.rfind("not told apart:", 0) != 0) continue;
        ++within;
        EXPECT_EQ(cell["verdict"], false);  // "no"
        EXPECT_NE(reason.find("no more than memcpy-peer|gpu0|gpu1|peer=on moved between two of its measurements "
                              "(+20.0%); pairs of one link class"),
                  std::string::npos)
            << reason;
    }
    EXPECT_EQ(within, 1u);
}

TEST(ReportModel, BandsHoldTheMedianAndDuplexKeepsEachDirection) {
    const auto model = report_model({h200x2()}, {});
    std::size_t with_parts = 0;
    for (const auto& c : model["curves"]) {
        ASSERT_EQ(c["b"].size(), 31u) << c["key"];
        for (std::size_t i = 0; i < c["b"].size(); ++i) {
            EXPECT_LE(c["lo"][i].get<double>(), c["bw"][i].get<double>() * 1.001) << c["key"] << " point " << i;
            EXPECT_GE(c["hi"][i].get<double>(), c["bw"][i].get<double>() * 0.999) << c["key"] << " point " << i;
        }
        EXPECT_FALSE(c.contains("raw"));
        if (c.contains("parts")) {
            ++with_parts;
            EXPECT_TRUE(c["parts"].contains("forward") && c["parts"].contains("reverse")) << c["key"];
        }
    }
    EXPECT_EQ(with_parts, 4u);  // duplex-d2d on/off, duplex-h2d gpu0/gpu1
}

TEST(ReportModel, RawEmbedsEverySampleAsBandwidth) {
    const ReportInput input = h200x2();
    const auto model = report_model({input}, {true});
    const auto& curve = model["curves"][0];
    const Record& record = input.results.records[0];
    ASSERT_EQ(curve["raw"].size(), record.points.size());
    EXPECT_EQ(curve["raw"][30].size(), record.points[30].samples_s.size());
    const double first = record.points[30].bytes_per_rep / record.points[30].samples_s[0] / 1e9;
    EXPECT_NEAR(curve["raw"][30][0].get<double>(), first, first * 1e-3);
}

TEST(ReportModel, TwoFilesOverlayWithTheFileAsLegend) {
    ReportInput a = h200x2(), b = h200x2();
    b.name = "after.json";
    const auto model = report_model({a, b}, {});
    EXPECT_EQ(model["curves"].size(), 86u);
    EXPECT_EQ(model["groups"].size(), 15u);  // overlaid, not doubled
    const auto* h2d = group_titled(model["groups"], "h2d: host \xE2\x86\x92 gpu0");
    ASSERT_NE(h2d, nullptr);
    ASSERT_EQ((*h2d)["curves"].size(), 10u);
    EXPECT_EQ((*h2d)["curves"][0]["label"].get<std::string>().rfind("results-default.json: ", 0), 0u);
    EXPECT_EQ((*h2d)["curves"][9]["label"].get<std::string>().rfind("after.json: ", 0), 0u);
    EXPECT_EQ(model["heatmaps"].size(), 34u);  // per file
}

// A record timed without its blocking kernel (context.gate "dropped: ...")
// says so beside its curve's facts, the others say nothing of it: in this
// example (2026-11-22) the five staged peer copies' queueing stalled the host
// behind the gate; a dropped gate planted on cpu-read's record makes six.
TEST(ReportModel, ACurveTimedWithoutItsBlockingKernelSaysSoInItsFacts) {
    const auto noted_keys = [](const nlohmann::json& model) {
        std::vector<std::string> keys;
        for (const auto& c : model["curves"])
            if (c["facts"].contains("note")) {
                EXPECT_EQ(c["facts"]["note"].get<std::string>().rfind("timed without the blocking kernel (dropped: ", 0),
                          0u);
                keys.push_back(c["key"].get<std::string>());
            }
        return keys;
    };
    ReportInput input = h200x2();
    const std::vector<std::string> before = noted_keys(report_model({input}, {}));
    EXPECT_EQ(before.size(), 5u);
    for (const std::string& k : before) EXPECT_NE(k.find("peer=off"), std::string::npos) << k;
    ASSERT_EQ(input.results.records[0].method, "cpu-read");
    input.results.records[0].context["gate"] = "dropped: the blocking kernel timed out while copies were queued";
    std::vector<std::string> after = noted_keys(report_model({input}, {}));
    ASSERT_EQ(after.size(), 6u);
    EXPECT_NE(std::find(after.begin(), after.end(), input.results.records[0].key), after.end());
}

TEST(ReportPage, SelfContainedAndSmall) {
    const std::string page = render_report_html({h200x2()}, {});
    EXPECT_LT(page.size(), 2u * 1024 * 1024);
    EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
    EXPECT_NE(page.find("Apache Software Foundation"), std::string::npos);  // the library is inline
    EXPECT_EQ(page.find("<script src"), std::string::npos);
    EXPECT_EQ(page.find("<link"), std::string::npos);
    // The data cannot end its <script> element early.
    EXPECT_EQ(script_safe_json({{"k", "</script><b>"}}).find("</"), std::string::npos);
    // Run facts the reader compares first.
    EXPECT_NE(page.find("580.159.04"), std::string::npos);  // driver, from the topology
    EXPECT_NE(page.find("f38c90b"), std::string::npos);     // revision
}

TEST(ReportPage, FourGpuExampleUnderFiveMegabytes) {
    ReportInput input;
    input.name = "results-default.json.gz";
    input.results = load_results_file(HWCOMM_EXAMPLES "/h200x4/results-default.json.gz");
    input.graph = graph_from_json(input.results.topology);
    ASSERT_EQ(input.results.records.size(), 137u);
    EXPECT_LT(render_report_html({input}, {}).size(), 5u * 1000 * 1000);
    const auto model = report_model({input}, {});
    EXPECT_EQ(model["groups"].size(), 36u);
    EXPECT_EQ(model["heatmaps"].size(), 19u);
}

}  // namespace
}  // namespace hwcomm::report_html
