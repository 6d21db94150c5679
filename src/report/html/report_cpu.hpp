#pragma once
// The report's CPU memory section (docs/cpu-methods.md): per input file with
// CPU memory records, the facts of src/analyze/cpu_facts (the same as
// `summary` and `analyze --json` print), for report_cpu.js to draw.
#include <vector>

#include <nlohmann/json.hpp>

#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

// [{"file": name, "facts": cpu_facts_json}], one per input that has CPU memory records; empty when none has.
nlohmann::json cpu_model(const std::vector<ReportInput>& inputs);

}  // namespace hwcomm::report_html
