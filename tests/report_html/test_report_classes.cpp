// The report's link classes (issue 21): the classes of each file's records,
// how each record was measured, and a confirmed curve's representative shape
// between its measured sizes (4x H200 example, no GPU).
#include <gtest/gtest.h>

#include <cmath>

#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {
namespace {

ReportInput h200x4() {
    ReportInput input;
    input.name = "results-default.json.gz";
    input.results = load_results_file(HWCOMM_EXAMPLES "/h200x4/results-default.json.gz");
    input.graph = graph_from_json(input.results.topology);
    return input;
}

const nlohmann::json* class_represented_by(const nlohmann::json& classes, const std::string& pair) {
    for (const auto& c : classes)
        if (c["representative"] == pair) return &c;
    return nullptr;
}

Record* find_record(ResultsFile& f, const std::string& key) {
    for (Record& r : f.records)
        if (r.key == key) return &r;
    return nullptr;
}

}  // namespace

TEST(ReportClasses, EveryRecordOfAPairHasItsClassAndIsFullByDefault) {
    const auto model = report_model({h200x4()}, {});
    ASSERT_EQ(model["classes"].size(), 1u);
    const auto& classes = model["classes"][0]["classes"];
    const auto* peer = class_represented_by(classes, "gpu0 -> gpu1");
    ASSERT_NE(peer, nullptr) << classes.dump();
    EXPECT_EQ((*peer)["members"], 12);  // every ordered pair of the 4 GPUs
    EXPECT_NE((*peer)["description"].get<std::string>().find("NV18"), std::string::npos);
    EXPECT_EQ((*peer)["measured_as"]["full"], (*peer)["curves"].size());
    EXPECT_EQ((*peer)["measured_as"]["confirmed"], 0);
    for (const auto& id : (*peer)["curves"]) {
        const auto& c = model["curves"][id.get<std::size_t>()];
        EXPECT_EQ(c["cls"], (*peer)["id"]);
        EXPECT_EQ(c["as"], "full");
        EXPECT_FALSE(c.contains("shape"));
    }
}

// gpu0 -> gpu2 confirmed at three of its sizes: between them the page draws
// gpu0 -> gpu1's shape, scaled through gpu0 -> gpu2's own points.
TEST(ReportClasses, AConfirmedCurveCarriesItsRepresentativesShapeBetweenItsSizes) {
    ReportInput input = h200x4();
    Record* confirmed = find_record(input.results, "memcpy-peer|gpu0|gpu2|peer=on");
    ASSERT_NE(confirmed, nullptr);
    ASSERT_GE(confirmed->points.size(), 10u);
    const std::vector<Point> all = confirmed->points;
    confirmed->points = {all[2], all[all.size() / 2], all.back()};
    confirmed->measured_as = "confirmed";
    const auto model = report_model({input}, {});
    const nlohmann::json* curve = nullptr;
    for (const auto& c : model["curves"])
        if (c["key"] == confirmed->key) curve = &c;
    ASSERT_NE(curve, nullptr);
    EXPECT_EQ((*curve)["as"], "confirmed");
    ASSERT_TRUE(curve->contains("shape"));
    const auto& shape = (*curve)["shape"];
    EXPECT_EQ(shape["of"], "memcpy-peer|gpu0|gpu1|peer=on");
    // From its first to its last measured size, every size the representative measured there.
    EXPECT_EQ(shape["b"].front(), all[2].bytes);
    EXPECT_EQ(shape["b"].back(), all.back().bytes);
    EXPECT_EQ(shape["b"].size(), all.size() - 2);
    // Through its own measured points.
    for (const Point& p : confirmed->points)
        for (std::size_t i = 0; i < shape["b"].size(); ++i)
            if (shape["b"][i] == p.bytes) {
                EXPECT_NEAR(shape["bw"][i].get<double>(), p.bandwidth_gbps, 1e-3 * p.bandwidth_gbps);
            }
    bool labelled = false;
    for (const auto& g : model["groups"])
        for (const auto& e : g["curves"])
            if (model["curves"][e["id"].get<std::size_t>()]["key"] == confirmed->key)
                labelled = e["label"].get<std::string>().find("[confirmed]") != std::string::npos;
    EXPECT_TRUE(labelled);
    const auto* peer = class_represented_by(model["classes"][0]["classes"], "gpu0 -> gpu1");
    ASSERT_NE(peer, nullptr);
    EXPECT_EQ((*peer)["measured_as"]["confirmed"], 1);
}

// A lane of a confirmation round (context.round) is a confirmation like any:
// counted so in its class's row, labelled so on its chart.
TEST(ReportClasses, ALaneOfARoundCountsAsAConfirmation) {
    ReportInput input = h200x4();
    Record* lane = find_record(input.results, "memcpy-peer|gpu0|gpu2|peer=on");
    ASSERT_NE(lane, nullptr);
    const std::vector<Point> all = lane->points;
    lane->points = {all[2], all[all.size() / 2], all.back()};
    lane->measured_as = "confirmed";
    lane->context["round"] = {{"lanes", {"gpu0->gpu2", "gpu2->gpu3"}}, {"lane", "gpu0->gpu2"}};
    const auto model = report_model({input}, {});
    const auto* peer = class_represented_by(model["classes"][0]["classes"], "gpu0 -> gpu1");
    ASSERT_NE(peer, nullptr);
    EXPECT_EQ((*peer)["measured_as"]["confirmed"], 1);
    for (const auto& c : model["curves"])
        if (c["key"] == lane->key) {
            EXPECT_EQ(c["as"], "confirmed");
        }
}

// Each file's run time beside its plan's estimate, per method and in total,
// as `hwcomm summary` prints it: planted estimates and times on two records.
TEST(ReportClasses, TheRunTimeBesideThePlansEstimateIsPerMethodWithATotal) {
    ReportInput input = h200x4();
    EXPECT_TRUE(report_model({input}, {})["classes"][0]["run_time"].empty());  // a file of a build before plans
    Record* peer = find_record(input.results, "memcpy-peer|gpu0|gpu1|peer=on");
    Record* confirmed = find_record(input.results, "memcpy-peer|gpu0|gpu2|peer=on");
    ASSERT_NE(peer, nullptr);
    ASSERT_NE(confirmed, nullptr);
    peer->context["estimate_s"] = 2.0;
    peer->context["elapsed_s"] = 2.5;
    confirmed->context["estimate_s"] = 0.5;
    confirmed->context["elapsed_s"] = 0.5;
    confirmed->measured_as = "confirmed";
    const auto rows = report_model({input}, {})["classes"][0]["run_time"];
    ASSERT_GE(rows.size(), 2u);
    const auto& total = rows.back();
    EXPECT_EQ(total["method"], "");
    EXPECT_EQ(total["timed"], 2);
    EXPECT_DOUBLE_EQ(total["estimate_s"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(total["elapsed_s"].get<double>(), 3.0);
    const nlohmann::json* memcpy_peer = nullptr;
    for (const auto& r : rows)
        if (r["method"] == "memcpy-peer") memcpy_peer = &r;
    ASSERT_NE(memcpy_peer, nullptr);
    EXPECT_EQ((*memcpy_peer)["timed"], 2);
    EXPECT_EQ((*memcpy_peer)["confirmed"], 1);
    EXPECT_EQ((*memcpy_peer)["records"].get<int>(), (*memcpy_peer)["full"].get<int>() + 1);
}

}  // namespace hwcomm::report_html
