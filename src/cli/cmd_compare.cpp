// hwcomm compare A.json[.gz] B.json[.gz] [--threshold PCT]: matched records'
// changes of large-transfer bandwidth and small-transfer time, records on one
// side only, how the machines differ; exit 1 when a change passes the
// threshold (for CI and procurement checks).
#include <iostream>
#include <memory>
#include <stdexcept>

#include "analyze/compare.hpp"
#include "io/results_file.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"

namespace hwcomm::cli {

namespace {

struct CompareArgs {
    std::vector<std::string> files;
    double threshold_pct = 5;
};

int run_compare(const CompareArgs& a) {
    if (!(a.threshold_pct > 0)) throw UsageError("compare: --threshold must be a positive percentage");
    ResultsFile f[2];
    for (int i = 0; i < 2; ++i) {
        try {
            f[i] = load_results_file(a.files[i]);
        } catch (const std::runtime_error& e) {  // names the file already
            throw UsageError(std::string("compare: ") + e.what());
        }
    }
    const auto c = analyze::compare_results(f[0], f[1], a.threshold_pct / 100.0);
    std::cout << analyze::format_comparison(c, a.files[0], a.files[1]);
    return c.beyond > 0 ? 1 : 0;
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<CompareArgs>();
    auto* sub = app.add_subcommand("compare", "Changes between two results files (.json or .json.gz); exit 1 "
                                              "when one passes --threshold");
    sub->add_option("files", args->files, "results files A and B")->required()->expected(2);
    sub->add_option("--threshold", args->threshold_pct, "percent change that fails the comparison (default 5)");
    sub->callback([&action, args] { action = [args] { return run_compare(*args); }; });
}

}  // namespace hwcomm::cli
