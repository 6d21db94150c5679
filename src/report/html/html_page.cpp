#include "report/html/html_page.hpp"
#include "hwcomm_revision.hpp"

#include <iterator>
#include <sstream>

#include "report/html/edge_measures.hpp"
#include "report/html/embedded_assets.hpp"
#include "report/html/html_escape.hpp"
#include "report/html/topo_svg.hpp"

namespace hwcomm::report_html {

namespace {

// The page's scripts, inline, in the order they run: the error catcher
// first, the charting library, helpers the page script calls, the page script.
constexpr const char* kScripts[] = {"report_boot.js",    "echarts.min.js",   "report_tips.js",
                                    "report_analysis.js", "report_classes.js", "report_gpumem.js",
                                    "report_cpu.js",     "report_check.js",  "report.js"};

// Exactly the page's own scripts run, named by their SHA-256: no inline
// handler, no script a name in the data could smuggle in ('unsafe-inline'
// would allow both). Styles inline, images from data: and blob: (the PNG
// export); anything else the page might try is refused by the browser.
std::string content_security_policy() {
    std::string scripts;
    for (const char* name : kScripts) scripts += " 'sha256-" + std::string(embedded_asset_sha256(name)) + "'";
    return "default-src 'none'; script-src" + scripts + "; style-src 'unsafe-inline'; img-src data: blob:";
}

std::string inline_script(const char* name) { return "<script>" + std::string(embedded_asset(name)) + "</script>\n"; }

// Present only when a file has gpumem-* records (docs/gpumem.md).
constexpr const char* kGpumemSection =
    "<section id=\"gpumem\"><h2>GPU memory</h2><p class=\"caption\">Inside one GPU (<code>hwcomm gpumem</code>): "
    "how long each warp waits for its load, how read bandwidth grows with resident warps until Little's law "
    "(bytes in flight over latency) or the DRAM's bandwidth caps it, what strided access costs in 32-byte "
    "sectors, and the latency of one dependent load by working set and by where the memory is.</p>"
    "<div id=\"gpumem-charts\" class=\"grid\"></div></section>\n";

// Present only when a file has CPU memory records (docs/cpu-methods.md).
constexpr const char* kCpuSection =
    "<section id=\"cpu\"><h2>CPU memory</h2><p class=\"caption\">The NUMA nodes' memory as STREAM and Intel MLC "
    "see it: read, write, copy and triad bandwidth with both byte counts, the idle latency between every pair of "
    "nodes, the latency ladder from L1 to DRAM, latency under load, and bandwidth at read/write mixes.</p>"
    "<div id=\"cpu-charts\" class=\"grid\"></div></section>\n";

}  // namespace

std::string script_safe_json(const nlohmann::json& value) {
    // replace: a file name in the data may hold bytes that are not UTF-8.
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '<') out += "\\u003c";  // only ever inside JSON strings
        else out += text[i];
    }
    return out;
}

std::string render_report_html(const std::vector<ReportInput>& inputs, const ReportOptions& options) {
    const nlohmann::json model = report_model(inputs, options);
    const auto& gpumem = model["gpumem"];
    const bool has_gpumem = !gpumem["timelines"].empty() || !gpumem["occupancy"].empty() ||
                            !gpumem["stride"].empty() || !gpumem["latency"].empty();
    std::ostringstream page;
    std::string title = "hwcomm report";
    if (!inputs.empty()) title += ": " + inputs.front().name + (inputs.size() > 1 ? " and others" : "");
    page << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         << "<meta http-equiv=\"Content-Security-Policy\" content=\"" << content_security_policy() << "\">"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         << "<title>" << html_escape(title) << "</title>"
         // First script: catch errors and refused requests before anything else runs.
         << inline_script(kScripts[0])
         << "<style>" << embedded_asset("report.css") << "</style></head><body>\n"
         << "<header><h1>" << html_escape(title) << "</h1><nav id=\"toc\"></nav></header>\n"
         << "<section id=\"run\"><h2>The run</h2><p class=\"caption\">Where and how the numbers were taken; "
            "check versions, options and load before comparing files.</p><div id=\"run-tables\"></div></section>\n"
         << "<section id=\"machine\"><h2>The machine</h2><p class=\"caption\">One box per vertex of the topology. "
            "Edges show the theoretical rate per direction and, where a curve crossed them, the best large-transfer "
            "bandwidth and its fraction of that rate, coloured red (far) to green (at the limit).</p>";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto& input = inputs[i];
        page << "<figure class=\"topology-figure\" id=\"topology-" << i << "\" data-file=\"" << html_escape(input.name) << "\"><figcaption>"
             << html_escape(input.name) << "</figcaption><div class=\"topo-holder\">"
             << topology_svg(input.graph, measured_edges(input.graph, input.results)) << "</div></figure>";
    }
    page << "</section>\n"
         << cluster_section_html(inputs)
         << "<section id=\"bandwidth\"><h2>Bandwidth against transfer size</h2><p class=\"caption\">Median bandwidth "
            "per size (bytes over median time); the shaded band is the interquartile range of the samples, the dashed "
            "line the path's theoretical limit, red triangles suspect points. Curves that the study compares share a "
            "chart.</p><div id=\"groups\" class=\"grid\"></div></section>\n"
         << "<section id=\"small\"><h2>Small-transfer time</h2><p class=\"caption\">Median time per transfer up to "
            "1 MiB, per method: the fixed cost of one transfer (launch, synchronisation, doorbells) before bandwidth "
            "matters.</p><div id=\"small-charts\" class=\"grid\"></div></section>\n"
         << "<section id=\"matrices\"><h2>Source \xC3\x97 destination matrices</h2><p class=\"caption\">Per method, "
            "the large-transfer bandwidth of each pair (or the bandwidth at the size chosen), as NVIDIA's "
            "bandwidth tools print them: look for pairs that differ from their peers.</p>"
            "<div id=\"heatmaps\" class=\"grid\"></div></section>\n"
         << (has_gpumem ? kGpumemSection : "")
         << (model["cpu"].empty() ? "" : kCpuSection)
         << "<section id=\"analysis\"><h2>Analysis</h2><p class=\"caption\">The study's questions answered "
            "from these curves by an explicit rule (as <code>hwcomm analyze</code> prints them): each cell's "
            "verdict and effect, with links to the charts that decided it; then each path's efficiency against its "
            "bottleneck, and anomalies.</p><div id=\"analysis-tables\"></div></section>\n"
         << "<section id=\"classes\"><h2>Link classes and run time</h2><p class=\"caption\">Pairs whose paths cross the "
            "same kinds of edges at the same stated rates, with the same NUMA relation and switch sharing, form a "
            "class (<code>hwcomm topo</code> lists them): its representative gets the full size sweep, the other "
            "members are confirmed at a few sizes, and a member outside its class's spread on two measurements is "
            "promoted to a full sweep. A confirmed curve shows its measured sizes as points and, dashed between them, its "
            "representative's shape: not measured there. Below each file's classes, what its run took beside the "
            "estimate its plan made before measuring.</p><div id=\"classes-tables\"></div></section>\n"
         << "<footer>Made by hwcomm " << HWCOMM_VERSION << " (" << HWCOMM_GIT_REVISION
         << "). Charts: Apache ECharts 5.6.0 (Apache-2.0).</footer>\n"
         // Data, not code: a script element of a type the browser never runs.
         << "<script id=\"hwcomm-data\" type=\"application/json\">" << script_safe_json(model) << "</script>\n";
    for (std::size_t i = 1; i < std::size(kScripts); ++i) page << inline_script(kScripts[i]);
    page << "</body></html>\n";
    return page.str();
}

}  // namespace hwcomm::report_html
