#include "cli/cmd_run_plan.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "io/fingerprint.hpp"
#include "io/results_file.hpp"
#include "io/results_meta.hpp"
#include "platform/host_info.hpp"
#include "run/cost_fit.hpp"
#include "run/filter.hpp"
#include "run/run_options.hpp"

namespace hwcomm::cli {

namespace {

// The CPU model a fingerprint of this graph carries: the host's for this
// machine (as --resume compares it), the export's own for an --input file.
std::string cpu_model_of(const Graph& graph, bool live) {
    if (live) return read_host_info().cpu_model;
    for (const Vertex* v : graph.of_kind(VertexKind::Package))
        if (const auto it = v->attrs.find("cpu_model"); it != v->attrs.end()) return it->second;
    return "";
}

}  // namespace

std::optional<double> budget_seconds(const PlanCliArgs& args) {
    if (args.budget.empty()) return std::nullopt;
    return parse_duration(args.budget);
}

CostModel cost_model_for(const Graph& graph, const std::string& calibrate, bool live) {
    CostModel builtin = builtin_cost_model();
    if (calibrate.empty()) return builtin;
    ResultsFile file;
    try {
        file = load_results_file(calibrate);
    } catch (const std::exception& e) {
        throw UsageError("--calibrate " + calibrate + ": " + e.what());
    }
    const auto fingerprint = file.meta.find("fingerprint");
    const std::string why = fingerprint == file.meta.end()
                                ? std::string("it has no machine fingerprint")
                                : fingerprint_difference(machine_fingerprint(graph, cpu_model_of(graph, live)), *fingerprint);
    if (!why.empty()) {
        std::cerr << "hwcomm: warning: --calibrate " << calibrate << " is not of this machine (" << why
                  << "): the built-in costs are used\n";
        return builtin;
    }
    return calibrated_cost_model(file, calibrate, std::move(builtin));
}

RunPlan plan_for_run(const Graph& graph, const Registry& registry, const RunOptions& options, const PlanCliArgs& args,
                     bool live) {
    const std::optional<double> budget = budget_seconds(args);
    const Filters filters(options.filters, registry, graph);
    CostModel costs = cost_model_for(graph, args.calibrate, live);
    RunPlan plan = make_run_plan(graph, registry, filters, options, std::move(costs), budget);
    if (plan.budget) {
        std::cerr << "hwcomm: budget " << duration_text(plan.budget->budget_s) << ": estimate "
                  << duration_text(plan.budget->steps.empty() ? plan.budget->estimate_s : plan.budget->steps.front().before_s)
                  << (plan.budget->steps.empty() ? ", it fits" : "") << "\n";
        for (const BudgetStep& s : plan.budget->steps)
            std::cerr << "hwcomm: budget step " << s.name << ": " << s.description << ": estimate "
                      << duration_text(s.before_s) << " -> " << duration_text(s.after_s) << "\n";
    }
    return plan;
}

int print_run_plan(const PlanCliArgs& args, const RunOptions& options) {
    DiscoverOptions discover;
    discover.input_xml = args.input;
    discover.nvml_replay = args.nvml_replay;
    const bool live = args.input.empty() && args.nvml_replay.empty();
    const Graph graph = discover_machine(discover);
    const Registry registry = build_registry();
    // Checked against this graph as a measuring run checks them: unknown --under-load endpoints or a
    // method option's bad value exit 2 before anything is printed.
    RunOptions resolved = options;
    resolve_run_options(resolved, graph, registry);
    const RunPlan plan = plan_for_run(graph, registry, resolved, args, live);
    if (args.json) std::cout << run_plan_to_json(plan).dump(1) << "\n";
    else std::cout << format_run_plan(plan);
    return 0;
}

}  // namespace hwcomm::cli
