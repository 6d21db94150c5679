// hwcomm summary FILE... [--targets TARGETS]: the one-screen table of one or
// more results files (peak bandwidth and small-size latency per record), and,
// with --targets, how the best matching records compare with reference figures.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <stdexcept>

#include "analyze/fidelity.hpp"
#include "analyze/summary.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "io/results_file.hpp"

namespace hwcomm::cli {

void add_summary_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("summary", "One-screen table of a results file: peak GB/s and small-size latency "
                                              "per record, optionally against reference figures");
    auto files = std::make_shared<std::vector<std::string>>();
    auto targets = std::make_shared<std::string>();
    sub->add_option("files", *files, "results file(s) written by hwcomm run (records of several files are listed together)")
        ->required();
    sub->add_option("--targets", *targets, "reference figures to compare with (e.g. docs/targets-h200x2.json)");
    sub->callback([&action, files, targets] {
        action = [files, targets]() -> int {
            ResultsFile results;
            for (const auto& file : *files) {
                try {
                    ResultsFile one = load_results_file(file);
                    for (auto& r : one.records) results.records.push_back(std::move(r));
                } catch (const std::runtime_error& e) {
                    throw UsageError("summary: " + file + ": " + e.what());
                }
            }
            std::optional<analyze::TargetsFile> reference;
            if (!targets->empty()) {
                try {
                    reference = analyze::load_targets_file(*targets);
                } catch (const std::runtime_error& e) {
                    throw UsageError("summary: --targets " + *targets + ": " + e.what());
                }
            }
            std::cout << analyze::format_summary_table(analyze::summarize(results));
            if (reference) {
                std::cout << "\n"
                          << analyze::format_comparisons(analyze::compare(results, *reference), *reference);
            }
            return 0;
        };
    });
}

}  // namespace hwcomm::cli
