#pragma once
// Files compiled into the binary at build time (embed_files.cmake): the
// charting library and the page's own script and style sheet.
#include <string_view>

namespace hwcomm::report_html {

// "echarts.min.js", "report.js", "report_analysis.js", "report_gpumem.js", "report_cpu.js", "report.css"; empty when the name is unknown.
std::string_view embedded_asset(std::string_view name);

}  // namespace hwcomm::report_html
