#include "report/html/report_cpu.hpp"

#include "analyze/cpu_facts.hpp"

namespace hwcomm::report_html {

nlohmann::json cpu_model(const std::vector<ReportInput>& inputs) {
    nlohmann::json out = nlohmann::json::array();
    for (const ReportInput& in : inputs) {
        if (analyze::format_cpu_section(in.results.records).empty()) continue;
        out.push_back({{"file", in.name}, {"facts", analyze::cpu_facts_json(in.results.records)}});
    }
    return out;
}

}  // namespace hwcomm::report_html
