// hwcomm export --csv RESULTS.json [-o out.csv]: one CSV row per point.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "io/results_file.hpp"
#include "platform/atomic_file.hpp"
#include "io/csv_export.hpp"

namespace hwcomm::cli {

namespace {

struct ExportArgs {
    std::string csv_input;
    std::string output;
    bool force = false;
};

int export_command(const ExportArgs& a) {
    if (!a.output.empty() && inspect_output(a.output).kind == OutputKind::RegularFile && !a.force)
        throw UsageError(a.output + " exists; use --force to overwrite it");
    ResultsFile file;
    try {
        file = load_results_file(a.csv_input);
    } catch (const std::exception& e) {
        throw UsageError(e.what());
    }
    const std::string csv = results_to_csv(file);
    if (a.output.empty()) {
        std::cout << csv;
        return 0;
    }
    try {
        write_file_atomically(a.output, csv);
    } catch (const std::exception& e) {
        throw UsageError(e.what());
    }
    return 0;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ExportArgs>();
    auto* sub = app.add_subcommand("export", "flatten a results file");
    sub->add_option("--csv", args->csv_input, "results file to flatten to CSV (one row per point)")->required();
    sub->add_option("-o,--output", args->output, "CSV file to write (default: standard output)");
    sub->add_flag("--force", args->force, "overwrite an existing -o file");
    sub->callback([&action, args] { action = [args] { return export_command(*args); }; });
}

}  // namespace hwcomm::cli
