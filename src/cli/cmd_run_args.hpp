#pragma once
// hwcomm run's command line as given (RunArgs) and the run options it makes:
// defaults (--quick or not), the measurement options, the methods' declared
// options, checked against the limits a resumed file must meet too.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cmd_run_cluster.hpp"
#include "cli/cmd_run_plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm::cli {

struct RunArgs {
    std::string output;  // empty: hwcomm-results.json
    bool force = false;
    std::string resume;
    PlanCliArgs plan;    // --json, --input, --nvml-replay (with --plan), --budget, --calibrate
    bool exhaustive = false;
    bool quick = false;
    std::string min_size, max_size, max_noise;
    int points_per_octave = 0;
    std::size_t min_samples = 0;
    std::optional<std::size_t> noise_limit;
    double time_budget = 0;
    unsigned max_workers = 0;
    std::string timing;
    bool pool_half_gpu_memory = false;
    std::vector<std::string> filters;
    std::vector<std::string> under_load;  // --under-load SPECs
    std::string transfers;                // --transfers FILE | preset:NAME[:OPT...]
    std::size_t stop_after_records = 0;  // hidden test hook: stop as an interrupt would
    // Options the methods declare (Characterizer::options), as given.
    std::map<std::string, std::string> declared;
    std::map<std::string, bool> declared_flags;
    std::vector<OptionSpec> declared_specs;
    ClusterCliArgs cluster;  // --mpi, --plan, --node-name (cmd_run_cluster.hpp)
    // Every option that decides what or how a run measures, as registered
    // (measured() below): --resume takes them from the file and refuses them here.
    std::vector<const CLI::Option*> measurement;
};

RunOptions options_from_args(const RunArgs& a);
// The first measurement option given on the command line, or "".
std::string measurement_option_given(const RunArgs& a);

}  // namespace hwcomm::cli
