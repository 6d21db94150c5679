// The tidy export on a synthetic file with what the committed examples lack:
// lanes, axes, metrics, a failed point and a parameter that needs quoting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "io/tidy_export.hpp"

namespace hwcomm {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> cells(const std::string& line) {  // no quoted commas in the checked lines
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

ResultsFile sample() {
    ResultsFile f;
    f.meta = {{"host", "node7"}, {"git_revision", "abc123"}, {"tool_version", "0.1.0"}};
    Record group;
    group.method = "all-to-host", group.src = "gpus", group.dst = "numa0", group.params = {{"engine", "ce"}};
    group.context = {{"timing_mode", "event"}};
    group.lanes = {{"gpu0->numa0", "memcpy-d2h", "gpu0", "numa0", {}, "measured", {}},
                   {"gpu1->numa0", "memcpy-d2h", "gpu1", "numa0", {}, "load", {}}};
    Point p;
    p.bytes = 1 << 20, p.bytes_per_rep = 2 << 20, p.verified = true, p.stop_reason = "converged";
    p.stats = SampleStats{5, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 0, 0, 1e-4, 1e-4};
    p.bandwidth_gbps = 20.97152, p.peak_bandwidth_gbps = 21;
    p.axes["stride"] = 4;
    p.metrics["ns_per_op"] = Metric{3.5, "ns"};
    p.lanes = {{"gpu0->numa0", 1 << 20, p.stats, 10.48576, {}, {}}, {"gpu1->numa0", 1 << 20, p.stats, 9.5, {}, {}}};
    group.points.push_back(p);
    Point failed;
    failed.bytes = 2 << 20, failed.status = "error", failed.error = "cudaErrorX";
    failed.stats.n = 0;
    group.points.push_back(failed);
    f.records.push_back(group);
    Record quoted;
    quoted.method = "memcpy", quoted.src = "numa0", quoted.dst = "numa1", quoted.params = {{"threads", "a,b"}};
    quoted.provenance = {{"kind", "measured"}, {"revision", "def456"}};
    Point q;
    q.bytes = 8, q.bytes_per_rep = 8, q.stats = p.stats, q.stats.min = std::nan(""), q.bandwidth_gbps = 1;
    quoted.points.push_back(q);
    f.records.push_back(quoted);
    return f;
}

TEST(TidyExport, RowsPerPointLaneAndColumnsPerAxisMetricParam) {
    const ResultsFile f = sample();
    const auto lines = lines_of(export_tidy({{"in.json", &f}}, ExportFormat::Csv));
    ASSERT_EQ(lines.size(), 1u + 3 + 1 + 1);  // header; point + 2 lanes; failed point; memcpy point
    const auto header = cells(lines[0]);
    ASSERT_EQ(header.front(), "file");
    // Fixed columns first, then the dynamic ones sorted by name.
    const std::vector<std::string> tail(header.end() - 5, header.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"axis_stride", "metric_ns_per_op", "metric_ns_per_op_unit",
                                              "param_engine", "param_threads"}));
    auto col = [&](const std::string& line, const std::string& name) {
        const auto at = std::find(header.begin(), header.end(), name) - header.begin();
        return cells(line).at(static_cast<std::size_t>(at));
    };
    EXPECT_EQ(col(lines[1], "row_kind"), "point");
    EXPECT_EQ(col(lines[1], "lanes"), "2");
    EXPECT_EQ(col(lines[1], "axis_stride"), "4");
    EXPECT_EQ(col(lines[1], "metric_ns_per_op"), "3.5");
    EXPECT_EQ(col(lines[1], "metric_ns_per_op_unit"), "ns");
    EXPECT_EQ(col(lines[1], "timing_mode"), "event");
    EXPECT_EQ(col(lines[1], "host"), "node7");
    EXPECT_EQ(col(lines[1], "revision"), "abc123");
    EXPECT_EQ(col(lines[2], "row_kind"), "lane");
    EXPECT_EQ(col(lines[2], "lane_src"), "gpu0");
    EXPECT_EQ(col(lines[3], "lane_role"), "load");
    EXPECT_EQ(col(lines[3], "bandwidth_gbps"), "9.5");
    EXPECT_EQ(col(lines[3], "axis_stride"), "4");         // a lane keeps its point's coordinates
    EXPECT_EQ(col(lines[3], "metric_ns_per_op"), "");     // not its point's figures
    EXPECT_EQ(col(lines[4], "status"), "error");
    EXPECT_EQ(col(lines[4], "median_s"), "");
    EXPECT_EQ(col(lines[4], "bandwidth_gbps"), "");
    // The memcpy record: quoted parameter, its own revision, wall timing, an absent statistic empty.
    EXPECT_NE(lines[5].find(",\"a,b\""), std::string::npos) << lines[5];
    EXPECT_NE(lines[5].find(",def456,"), std::string::npos) << lines[5];
    EXPECT_NE(lines[5].find(",wall,point,"), std::string::npos) << lines[5];
    EXPECT_EQ(lines[5].find("nan"), std::string::npos) << lines[5];
}

TEST(TidyExport, JsonLinesHaveTheCsvColumnsAndNullForAbsent) {
    const ResultsFile f = sample();
    const auto csv = lines_of(export_tidy({{"in.json", &f}}, ExportFormat::Csv));
    const auto jsonl = lines_of(export_tidy({{"in.json", &f}}, ExportFormat::Jsonl));
    ASSERT_EQ(jsonl.size(), csv.size() - 1);
    const auto row = nlohmann::json::parse(jsonl[0]);
    EXPECT_EQ(row.size(), cells(csv[0]).size());
    EXPECT_TRUE(row.at("variant").is_null());
    EXPECT_EQ(row.at("axis_stride").get<int>(), 4);
    EXPECT_TRUE(nlohmann::json::parse(jsonl[4]).at("min_s").is_null());  // NaN is null
}

}  // namespace
}  // namespace hwcomm
