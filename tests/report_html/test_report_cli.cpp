// hwcomm report and topo --svg, run as a user runs them.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_helpers.hpp"

namespace {

using hwcomm::test::Result;
using hwcomm::test::Scratch;
using hwcomm::test::run_hwcomm;
using hwcomm::test::slurp;

const std::string kExample = HWCOMM_EXAMPLES "/h200x2/results-default.json.gz";

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(ReportCli, WritesOnePageWithEverythingInline) {
    Scratch s("report");
    const Result r = run_hwcomm(s, "report " + kExample + " -o r.html");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string page = slurp(s / "r.html");
    EXPECT_GT(page.size(), 1000000u);  // the charting library is in it
    EXPECT_LT(page.size(), 2000000u);
    EXPECT_EQ(count(page, "<g class=\"node\""), 15u);
    EXPECT_EQ(count(page, "\"samples_s\""), 0u);
}

TEST(ReportCli, TwoFilesNamedInTheLegend) {
    Scratch s("report2");
    const Result r = run_hwcomm(s, "report " + kExample + " " HWCOMM_EXAMPLES "/h200x2/results-pageable-wall.json -o r.html");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string page = slurp(s / "r.html");
    EXPECT_NE(page.find("results-pageable-wall.json: "), std::string::npos);
    EXPECT_EQ(count(page, "class=\"topology-figure\""), 2u);
}

TEST(ReportCli, BadInputIsOneLineAndWritesNothing) {
    Scratch s("report-bad");
    Result r = run_hwcomm(s, "report /nonexistent.json -o r.html");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(count(r.err, "\n"), 1u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(s / "r.html"));
    r = run_hwcomm(s, "report " + kExample);  // no -o
    EXPECT_EQ(r.code, 2);
}

TEST(TopoSvgCli, SamePictureAlone) {
    Scratch s("topo-svg");
    const std::string xml = HWCOMM_FIXTURES "/hwloc/power8gpudistances.xml";
    const Result r = run_hwcomm(s, "topo --input " + xml + " --json -o t.json --svg t.svg");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto topo = hwcomm::test::read_json(s / "t.json");
    const std::string svg = slurp(s / "t.svg");
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
    EXPECT_EQ(count(svg, "<g class=\"node\""), topo["vertices"].size());
    EXPECT_EQ(count(svg, "<path class=\"edge\""), topo["edges"].size());
}

}  // namespace
