// hwcomm __generate man DIR | bash [FILE] | zsh [FILE] | endpoints |
// cost-table [FILE] --from RESULTS --label TEXT | cost-check --from RESULTS
// [--fit OTHER]: hidden; the build calls it to
// write the man pages and completion scripts from the parser's own option
// definitions, the completions call `endpoints` for this machine's endpoint
// ids, and scripts/fit-cost-constants.sh calls `cost-table` to write the cost
// model's built-in table (run/builtin_cost_table.cpp) from a results file and
// `cost-check` to print its error on a run's records (cli/cost_check.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/cli_walk.hpp"
#include "cli/cost_check.hpp"
#include "cli/commands.hpp"
#include "cli/gen_completion.hpp"
#include "cli/gen_man.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "io/results_file.hpp"
#include "platform/atomic_file.hpp"
#include "run/cost_fit.hpp"
#include "run/cost_table_source.hpp"
#include "run/plan_estimate.hpp"
#include "run/plan.hpp"

namespace hwcomm::cli {

namespace {

struct GenerateArgs {
    std::string what;
    std::string path;  // man: the directory; bash, zsh, cost-table: the file (default standard output)
    std::vector<std::string> from;  // cost-table: the results files fitted (pooled); cost-check: the one checked
    std::string label; // cost-table: the run, as the table names it ("the default run on nvidia-h200-x2")
    std::string fit;   // cost-check: the file whose fit replaces the built-in constants
};

ResultsFile load_or_usage(const std::string& option, const std::string& path) {
    try {
        return load_results_file(path);
    } catch (const std::exception& e) {
        throw UsageError(option + " " + path + ": " + e.what());
    }
}

// The table's description: the label and the runs' own revisions.
std::string cost_table_description(const std::vector<ResultsFile>& files, const std::string& label) {
    std::string revisions;
    for (const ResultsFile& f : files) {
        const std::string r = f.meta.value("git_revision", std::string());
        if (r.empty() || revisions.find(r) != std::string::npos) continue;
        revisions += (revisions.empty() ? "" : ", ") + r;
    }
    if (revisions.empty()) return label;
    return label + (revisions.find(',') == std::string::npos ? " at revision " : " at revisions ") + revisions;
}

void emit(const std::string& text, const std::string& path) {
    if (path.empty()) std::cout << text;
    else write_file_atomically(path, text);
}

std::vector<std::string> method_names() {
    const Registry registry = build_registry();  // outlives the loop over its methods
    std::vector<std::string> names;
    for (const auto& m : registry.all()) names.push_back(m->name());
    return names;
}

// The endpoint ids a --filter src=/dst= can name: the ends of every planned record.
void print_endpoints() {
    const Graph graph = discover_machine(DiscoverOptions{});
    const Registry registry = build_registry();
    std::set<std::string> ids;
    for (const auto& p : build_plan(graph, registry, Filters{}, MethodOptions{})) {
        ids.insert(p.src_id);
        ids.insert(p.dst_id);
    }
    for (const auto& id : ids) std::cout << id << "\n";
}

int generate(const CLI::App& app, const GenerateArgs& a) {
    const auto commands = describe_cli(app);
    if (a.what == "bash") emit(bash_completion(commands, method_names()), a.path);
    else if (a.what == "zsh") emit(zsh_completion(commands, method_names()), a.path);
    else if (a.what == "endpoints") print_endpoints();
    else if (a.what == "cost-table") {
        if (a.from.empty() || a.label.empty())
            throw UsageError("__generate cost-table needs --from RESULTS (once or more) and --label TEXT");
        std::vector<ResultsFile> files;
        std::string named;
        for (const std::string& f : a.from) {
            files.push_back(load_or_usage("--from", f));
            named += (named.empty() ? "" : kPooledFilesSeparator) + f;
        }
        ResultsFile pooled;
        try {
            pooled = pooled_results(files);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--from: ") + e.what());
        }
        emit(cost_table_source(fit_method_costs(pooled), cost_table_description(files, a.label), named), a.path);
    } else if (a.what == "cost-check") {
        if (a.from.size() != 1) throw UsageError("__generate cost-check needs one --from RESULTS");
        const ResultsFile file = load_or_usage("--from", a.from.front());
        const CostModel costs =
            a.fit.empty() ? builtin_cost_model() : calibrated_cost_model(load_or_usage("--fit", a.fit), a.fit, builtin_cost_model());
        const Registry registry = build_registry();
        emit(cost_check_table(estimate_recorded(file, registry, costs)), a.path);
    }
    else if (a.what == "man") {
        if (a.path.empty()) throw UsageError("__generate man needs the directory to write the pages into");
        std::filesystem::create_directories(a.path);
        for (const auto& [name, text] : man_pages(commands, HWCOMM_VERSION))
            write_file_atomically((std::filesystem::path(a.path) / name).string(), text);
    }
    return 0;
}

}  // namespace

void add_generate_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<GenerateArgs>();
    auto* sub = app.add_subcommand("__generate", "man pages, shell completions, endpoint ids (for the build)");
    sub->group("");  // hidden from --help, the man pages and the completions
    sub->add_option("what", args->what)->required()->check(CLI::IsMember({"man", "bash", "zsh", "endpoints", "cost-table", "cost-check"}));
    sub->add_option("path", args->path);
    sub->add_option("--from", args->from);
    sub->add_option("--label", args->label);
    sub->add_option("--fit", args->fit);
    const CLI::App* root = &app;
    sub->callback([&action, args, root] { action = [args, root] { return generate(*root, *args); }; });
}

}  // namespace hwcomm::cli
