// The one escaper of HTML text and attributes, and a page made from hostile
// names (issue 24 item 4, issue 25): nothing from the data becomes markup,
// and only the page's own scripts may run.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "core/graph_json.hpp"
#include "io/results_file.hpp"
#include "report/html/embedded_assets.hpp"
#include "report/html/html_escape.hpp"
#include "report/html/html_page.hpp"
#include "report/html/topo_svg.hpp"

namespace hwcomm::report_html {
namespace {

const std::string kPayload = "a\"b'c<img src=x onerror=alert(1)>&amp;";

TEST(HtmlEscape, QuotesAngleBracketsAndAmpersands) {
    EXPECT_EQ(html_escape(kPayload), "a&quot;b&#39;c&lt;img src=x onerror=alert(1)&gt;&amp;amp;");
    EXPECT_EQ(html_escape(""), "");
    EXPECT_EQ(html_escape("gpu0 \xE2\x86\x92 numa1"), "gpu0 \xE2\x86\x92 numa1");  // UTF-8 passes
    EXPECT_EQ(html_escape("</script>"), "&lt;/script&gt;");
}

TEST(HtmlEscape, ControlCharactersAndInvalidUtf8BecomeReplacementCharacters) {
    // XML 1.0 allows no C0 control but tab, newline and carriage return, not even as &#1;.
    EXPECT_EQ(html_escape(std::string("a\x01" "b\x1b[31m\tc\n")), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD[31m\tc\n");
    EXPECT_EQ(html_escape("caf\xE9"), "caf\xEF\xBF\xBD");
    EXPECT_EQ(html_escape(std::string(1, '\0')), "\xEF\xBF\xBD");
}

ReportInput hostile_input() {
    ReportInput input;
    input.name = kPayload + ".json";
    input.results = load_results_file(HWCOMM_EXAMPLES "/h200x2/results-default.json.gz");
    input.graph = graph_from_json(input.results.topology);
    return input;
}

TEST(HtmlEscape, PageOfAHostileFileNameHoldsItOnlyEscaped) {
    const std::string page = render_report_html({hostile_input()}, {});
    EXPECT_EQ(page.find("<img src=x"), std::string::npos);
    EXPECT_EQ(page.find("data-file=\"a\"b"), std::string::npos);  // the attribute is not closed early
    EXPECT_NE(page.find("data-file=\"" + html_escape(kPayload + ".json") + "\""), std::string::npos);
    EXPECT_NE(page.find("<title>hwcomm report: " + html_escape(kPayload + ".json") + "</title>"), std::string::npos);
}

TEST(HtmlEscape, PolicyRunsOnlyThePagesOwnScriptsByHash) {
    const std::string page = render_report_html({hostile_input()}, {});
    std::smatch policy;
    ASSERT_TRUE(std::regex_search(page, policy, std::regex("script-src([^;]*);")));
    const std::string scripts = policy[1];
    EXPECT_EQ(scripts.find("unsafe-inline"), std::string::npos) << scripts;
    EXPECT_EQ(scripts.find("unsafe-eval"), std::string::npos) << scripts;
    // One hash per inline script that runs (the data's <script type="application/json"> does not).
    std::size_t runnable = 0;
    for (std::size_t at = 0; (at = page.find("<script>", at)) != std::string::npos; ++at) ++runnable;
    std::size_t hashes = 0;
    for (std::size_t at = 0; (at = scripts.find("'sha256-", at)) != std::string::npos; ++at) ++hashes;
    EXPECT_EQ(runnable, 9u);
    EXPECT_EQ(hashes, runnable);
    for (const char* name : {"report_boot.js", "echarts.min.js", "report_tips.js", "report_analysis.js",
                             "report_classes.js", "report_gpumem.js", "report_cpu.js", "report_check.js", "report.js"}) {
        const std::string digest(embedded_asset_sha256(name));
        EXPECT_EQ(digest.size(), 44u) << name;  // base64 of 32 bytes
        EXPECT_NE(scripts.find("'sha256-" + digest + "'"), std::string::npos) << name;
        EXPECT_NE(page.find("<script>" + std::string(embedded_asset(name)) + "</script>"), std::string::npos) << name;
    }
}

TEST(HtmlEscape, TopologyPictureOfHostileNamesIsWellFormed) {
    Graph g;
    g.add_vertex({.id = "numa0\"><script>x</script>", .kind = VertexKind::NumaNode, .name = kPayload + "\x01"});
    const std::string svg = topology_svg(g, {});
    EXPECT_EQ(svg.find("<script>"), std::string::npos);
    EXPECT_NE(svg.find("data-id=\"numa0&quot;&gt;&lt;script&gt;x&lt;/script&gt;\""), std::string::npos);
    EXPECT_EQ(svg.find('\x01'), std::string::npos);
}

}  // namespace
}  // namespace hwcomm::report_html
