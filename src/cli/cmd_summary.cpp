// hwcomm summary FILE... [--targets TARGETS] [--matrix METHOD[:k=v,..] [--at SIZE]]:
// the one-screen table of one or more results files built on the curve
// metrics; with --targets, how the best matching records compare with
// reference figures (exit 1 on a miss or another machine); with --matrix, a
// src x dst bandwidth matrix of one method.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyze/fidelity.hpp"
#include "analyze/cpu_facts.hpp"
#include "analyze/gpumem_summary.hpp"
#include "analyze/host_read.hpp"
#include "analyze/matrix.hpp"
#include "analyze/not_measured.hpp"
#include "analyze/run_time.hpp"
#include "analyze/summary.hpp"
#include "catalog/row_json.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/utf8.hpp"
#include "io/results_file.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::cli {

namespace {

struct SummaryArgs {
    std::vector<std::string> files;
    std::string targets, matrix, at;
};

// A short label for a file's rows when several files are summarized ("#2"),
// listed with its host and path above the table so the table stays narrow.
std::string legend_of(const ResultsFile& f, const std::string& path, std::size_t index) {
    const std::string host = f.meta.is_object() ? f.meta.value("host", "") : "";
    return "#" + std::to_string(index + 1) + " = " + to_valid_utf8(path) + (host.empty() ? "" : " (host " + host + ")");
}

// The project's one size parser (measure/byte_size.hpp), naming the option; no point has 0 bytes.
std::uint64_t size_option(const std::string& option, const std::string& text) {
    try {
        const std::uint64_t bytes = parse_size(text);
        if (bytes == 0) throw UsageError("'" + text + "' is 0 bytes; give a size above 0");
        return bytes;
    } catch (const UsageError& e) {
        throw UsageError(option + ": " + e.what());
    }
}

int run_summary(const SummaryArgs& a) {
    std::vector<analyze::SummaryRow> rows;
    std::string legend, gpumem, cpu, run_time, nothing;  // sections of their own: not size curves of one path
    ResultsFile all;
    bool all_topology = false;
    for (const auto& file : a.files) {
        ResultsFile one;
        MethodCatalog catalog = builtin_catalog();
        try {
            one = load_results_file(file);
            catalog = catalog_for(one.meta);
        } catch (const std::runtime_error& e) {  // names the file already
            throw UsageError(std::string("summary: ") + e.what());
        }
        const std::size_t index = &file - a.files.data();
        if (a.files.size() > 1) legend += legend_of(one, file, index) + "\n";
        const std::string source = a.files.size() > 1 ? "#" + std::to_string(index + 1) : "";
        // GPU memory, CPU latency and mix records get their own sections: their points are not a size curve.
        for (auto& row : analyze::summarize(one, source)) {
            const MethodRow* method_row = catalog.find(row.method);
            if (!in_family(method_row, MethodFamily::GpuMemory) && !analyze::in_cpu_section(method_row))
                rows.push_back(std::move(row));
        }
        gpumem += analyze::format_gpumem_summary(one.records, catalog, source);
        cpu += analyze::format_cpu_section(one.records, source);
        if (const std::string t = analyze::format_run_time(analyze::run_time_rows(one), analyze::run_wall_s(one));
            !t.empty())
            run_time += "\n" + (source.empty() ? "" : source + ": ") + t;
        if (const std::string h = analyze::format_host_read(one); !h.empty())
            run_time += (source.empty() ? "" : source + ": ") + h;
        nothing += analyze::format_methods_without_data(analyze::methods_without_data(one), source);
        if (!all_topology) all.topology = one.topology, all_topology = true;
        for (auto& r : one.records) all.records.push_back(std::move(r));
    }
    if (!a.matrix.empty()) {
        try {
            analyze::MatrixSpec spec = analyze::parse_matrix_spec(a.matrix);
            if (!a.at.empty()) spec.at_bytes = size_option("--at", a.at);
            std::cout << analyze::format_matrix(all, spec);
        } catch (const std::runtime_error& e) {
            throw UsageError(std::string("summary: ") + e.what());
        }
        return 0;
    }
    std::optional<analyze::TargetsFile> reference;
    if (!a.targets.empty()) {
        try {
            reference = analyze::load_targets_file(a.targets);
        } catch (const std::runtime_error& e) {  // names the file already
            throw UsageError(std::string("summary: --targets: ") + e.what());
        }
    }
    std::cout << legend;
    if (!rows.empty() || (gpumem.empty() && cpu.empty())) std::cout << analyze::format_summary_table(rows);
    if (!gpumem.empty()) std::cout << (rows.empty() ? "" : "\n") << gpumem;
    if (!cpu.empty()) std::cout << (rows.empty() && gpumem.empty() ? "" : "\n") << cpu;
    std::cout << run_time;
    std::cout << nothing;
    if (!reference) return 0;
    const auto comparisons = analyze::compare(all, *reference);
    const auto machine = analyze::check_machine(all, *reference);
    std::cout << "\n" << analyze::format_comparisons(comparisons, *reference, machine);
    return analyze::fidelity_failed(comparisons, machine) ? 1 : 0;
}

}  // namespace

void add_summary_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("summary", "One-screen table of results files: large-transfer GB/s, best point, "
                                              "% of link, small-transfer time; reference figures; matrices");
    auto args = std::make_shared<SummaryArgs>();
    sub->add_option("files", args->files, "results file(s) written by hwcomm run or hwcomm import")->required();
    sub->add_option("--targets", args->targets,
                    "reference figures to compare with (e.g. docs/targets-h200x2.json); exit 1 on a miss");
    sub->add_option("--matrix", args->matrix, "print a src x dst matrix of METHOD[:param=value,...] instead");
    sub->add_option("--at", args->at, "with --matrix: bandwidth at this size (e.g. 64M, 1G) instead of large-transfer");
    sub->callback([&action, args] {
        if (!args->at.empty() && args->matrix.empty()) throw CLI::ValidationError("--at", "needs --matrix");
        action = [args]() -> int { return run_summary(*args); };
    });
}

}  // namespace hwcomm::cli
