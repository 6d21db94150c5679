// hwcomm report: one self-contained HTML page (run facts, the machine as a
// picture, every curve, small-transfer times, src x dst matrices) from one or
// more results files; several files are overlaid with the file as legend.
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output_text.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "core/utf8.hpp"
#include "io/results_file.hpp"
#include "platform/atomic_file.hpp"
#include "report/html/html_page.hpp"

namespace hwcomm::cli {

namespace {

struct ReportCommandOptions {
    std::vector<std::string> inputs;
    std::string output;
    bool raw = false;
    bool force = false;
};

// Legend names: the file names, or the paths as given when two names clash.
std::vector<std::string> legend_names(const std::vector<std::string>& paths) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    bool clash = false;
    for (const auto& p : paths) {
        names.push_back(to_valid_utf8(std::filesystem::path(p).filename().string()));  // shown on the page
        clash = clash || !seen.insert(names.back()).second;
    }
    if (!clash) return names;
    for (std::size_t i = 0; i < paths.size(); ++i) names[i] = to_valid_utf8(paths[i]);
    return names;
}

int run_report(const ReportCommandOptions& options) {
    check_new_output(options.output, options.force);  // before any work: nothing is replaced unasked
    std::vector<report_html::ReportInput> inputs;
    const auto names = legend_names(options.inputs);
    for (std::size_t i = 0; i < options.inputs.size(); ++i) {
        report_html::ReportInput input;
        input.name = names[i];
        try {
            input.results = load_results_file(options.inputs[i]);
        } catch (const std::runtime_error& e) {
            throw UsageError(e.what());
        }
        if (!input.results.topology.empty()) {
            try {
                input.graph = graph_from_json(input.results.topology);
            } catch (const std::runtime_error& e) {
                std::cerr << "hwcomm: " << options.inputs[i] << ": topology unreadable (" << e.what()
                          << "); the picture stays empty\n";
            }
        }
        inputs.push_back(std::move(input));
    }
    const std::string page = report_html::render_report_html(inputs, {options.raw});
    print_or_write(options.output, page);
    std::cerr << "hwcomm: report of " << inputs.size() << " file(s) written to " << options.output << " ("
              << page.size() / 1024 << " KiB)\n";
    return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("report", "Write one self-contained HTML page of results files (charts, topology, matrices)");
    auto options = std::make_shared<ReportCommandOptions>();
    sub->add_option("results", options->inputs, "Results files (several are overlaid, the file as legend)")->required();
    sub->add_option("--output,-o", options->output, "HTML file to write (atomically)")->required();
    sub->add_flag("--raw", options->raw, "Embed every raw sample (default: quartiles only, a smaller page)");
    sub->add_flag("--force", options->force, "overwrite an existing -o file");
    sub->callback([&action, options] { action = [options] { return run_report(*options); }; });
}

}  // namespace hwcomm::cli
