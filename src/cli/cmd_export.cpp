// hwcomm export FILE... [--format csv|jsonl] [-o OUT]: results files (.json,
// .json.gz, - for standard input) as one tidy table (docs/export.md).
// The older form `export --csv FILE` still writes one row per point.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/output_text.hpp"
#include "platform/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_parse.hpp"
#include "io/csv_export.hpp"
#include "io/results_file.hpp"
#include "io/results_json.hpp"
#include "io/tidy_export.hpp"

namespace hwcomm::cli {

namespace {

struct ExportArgs {
    std::vector<std::string> inputs;
    std::string format = "csv";
    std::string csv_input;  // the older --csv FILE form
    std::string output;
    bool force = false;
};

ResultsFile load_input(const std::string& path) {
    try {
        if (path != "-") return load_results_file(path);
        // The input path's cap holds for a pipe too (`export - < /dev/zero`).
        std::string text;
        char buf[1 << 16];
        while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
            text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
            if (text.size() > kMaxJsonFileBytes)
                throw std::runtime_error("standard input holds more than " + std::to_string(kMaxJsonFileBytes >> 20) + " MiB");
        }
        if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f)
            throw std::runtime_error("standard input is gzip-compressed: name the .gz file instead, or gunzip -c into -");
        return results_from_json(parse_json_text(text, "standard input"));
    } catch (const std::exception& e) {
        throw UsageError(std::string(e.what()) + " (export reads results files written by hwcomm run or import)");
    }
}

int export_command(const ExportArgs& a) {
    if (a.inputs.empty() == a.csv_input.empty())
        throw UsageError("export: name the results file(s): hwcomm export FILE... [--format csv|jsonl]");
    if (!a.output.empty() && inspect_output(a.output).kind == OutputKind::RegularFile && !a.force)
        throw UsageError(a.output + " exists; use --force to overwrite it");
    std::string text;
    if (!a.csv_input.empty()) {
        text = results_to_csv(load_input(a.csv_input));
    } else {
        std::vector<ResultsFile> files;
        files.reserve(a.inputs.size());
        for (const auto& path : a.inputs) files.push_back(load_input(path));
        std::vector<ExportSource> sources;
        for (std::size_t i = 0; i < files.size(); ++i) sources.push_back({a.inputs[i], &files[i]});
        text = export_tidy(sources, a.format == "jsonl" ? ExportFormat::Jsonl : ExportFormat::Csv);
    }
    print_or_write(a.output, text);
    return 0;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ExportArgs>();
    auto* sub = app.add_subcommand("export", "results files as one tidy table (CSV or JSON lines) for pandas, R, spreadsheets");
    sub->add_option("files", args->inputs, "results files (.json, .json.gz; - reads standard input)");
    sub->add_option("--format", args->format, "csv (default) or jsonl: one row per point, variant and lane")
        ->check(CLI::IsMember({"csv", "jsonl"}));
    sub->add_option("--csv", args->csv_input, "older form: one results file to one CSV row per point (no variants, lanes)");
    sub->add_option("-o,--output", args->output, "file to write (default: standard output)");
    sub->add_flag("--force", args->force, "overwrite an existing -o file");
    sub->callback([&action, args] { action = [args] { return export_command(*args); }; });
}

}  // namespace hwcomm::cli
