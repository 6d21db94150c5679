#pragma once
// The report as one HTML document: style, the charting library, the page
// script and the data inline; no request leaves the page (a Content Security
// Policy forbids any).
#include <string>
#include <vector>

#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

std::string render_report_html(const std::vector<ReportInput>& inputs, const ReportOptions& options);

// The cluster section (nodes, flagged nodes and pairs) of the cluster inputs; "" when none is one.
std::string cluster_section_html(const std::vector<ReportInput>& inputs);

// Makes JSON safe inside <script>: no "</" can close the element early.
std::string script_safe_json(const nlohmann::json& value);

}  // namespace hwcomm::report_html
