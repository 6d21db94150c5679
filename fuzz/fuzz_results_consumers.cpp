// What every command does with a results file once it is read (issue 25:
// "meta": [] in model fit, a numeric vertex kind in compare, a numeric
// meta.host in export were internal errors): summary, analyze, compare,
// tidy export, model fit and the report's model, on whatever the reader
// accepts. UsageError and std::runtime_error are the documented answers to
// bad input; a JSON-library type error or anything else escaping is a finding.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "analyze/compare.hpp"
#include "analyze/study.hpp"
#include "analyze/summary.hpp"
#include "core/graph_json.hpp"
#include "core/json_parse.hpp"
#include "io/results_json.hpp"
#include "io/tidy_export.hpp"
#include "model/fit.hpp"
#include "report/html/report_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hwcomm;
    ResultsFile file;
    try {
        file = results_from_json(parse_json_text(std::string_view(reinterpret_cast<const char*>(data), size), "input"));
    } catch (const std::runtime_error&) {  // the reader's refusals (UsageError included)
        return 0;
    }
    const auto consume = [](const auto& step) {
        try {
            step();
        } catch (const std::runtime_error&) {
        }
    };
    consume([&] { (void)analyze::format_summary_table(analyze::summarize(file)); });
    consume([&] { (void)analyze::format_analysis_text(analyze::analyze_results({{"input", file}})); });
    consume([&] { (void)analyze::format_comparison(analyze::compare_results(file, file, 0.05), "a", "b"); });
    consume([&] { (void)export_tidy({{"input", &file}}, ExportFormat::Jsonl); });
    consume([&] { (void)model::fit_model({{"input", file}}); });
    consume([&] {
        report_html::ReportInput input{"input", file, {}};
        if (!file.topology.empty()) input.graph = graph_from_json(file.topology);
        (void)report_html::report_model({input}, {}).dump();
    });
    return 0;
}
