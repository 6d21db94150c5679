#pragma once
// The single-node plan of `hwcomm run` (issue 21): --plan prints it without
// measuring (also for another machine: --input, --nvml-replay), --budget fits
// it, --calibrate takes its costs from an earlier results file of the same
// machine. The measuring run (cmd_run.cpp) builds the same plan with
// plan_for_run.
#include <optional>
#include <string>

#include "core/graph.hpp"
#include "run/run_planner.hpp"

namespace hwcomm::cli {

struct PlanCliArgs {
    bool json = false;
    std::string input, nvml_replay;  // --plan for another machine
    std::string budget;              // DURATION, parsed by parse_duration
    std::string calibrate;           // RESULTS.json of this machine
};

// The budget in seconds, if given (UsageError when malformed or not positive).
std::optional<double> budget_seconds(const PlanCliArgs& args);

// The cost model: built-in, or fitted on --calibrate's file when that file was
// made on the machine of `graph` (else a warning on stderr and the built-in
// constants). `live`: the graph is this machine's (its CPU model from the host).
CostModel cost_model_for(const Graph& graph, const std::string& calibrate, bool live);

// Builds the plan and announces the budget's steps on stderr. `options` are
// resolved against `graph` already (resolve_run_options). The plan points
// into `registry`, which must outlive it.
RunPlan plan_for_run(const Graph& graph, const Registry& registry, const RunOptions& options, const PlanCliArgs& args,
                     bool live);

// `hwcomm run --plan` (no --mpi, no --nodes): prints the plan, measures nothing.
int print_run_plan(const PlanCliArgs& args, const RunOptions& options);

}  // namespace hwcomm::cli
