#pragma once
// Everything that decides what a run measures and how; stored in the results
// file's meta.options so --resume measures the rest exactly the same way.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/stopping_rule.hpp"
#include "measure/sweep.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm {

// How the plan measures (issue 21; docs/cli.md "The plan"). Stored with the
// options, so a resumed run measures the rest the same way.
struct PlanOptions {
    // Every record a full sweep of the run's fixed sizes: the plan before
    // classes and ladders (--exhaustive; files written before them).
    bool exhaustive = false;
    std::size_t confirmation_sizes = 3;  // 3: small, ramp and plateau; 1: the plateau only
    int ladder_octave_step = 1;          // the full sweeps' first pass: every octave, or every 2nd
};

struct RunOptions {
    SweepOptions sweep;
    std::vector<std::uint64_t> sizes;  // from sweep, capped by free memory
    StoppingOptions stopping;
    MethodOptions method;
    std::size_t warmup_runs = 1;       // untimed transfers per size and variant
    std::size_t max_variants = 0;      // 0: all; else first, last and evenly spaced between
    bool quick = false;
    std::vector<std::string> filters;  // --filter specs
    PlanOptions plan;
};

// The defaults of `hwcomm run` and of `hwcomm run --quick`.
RunOptions default_run_options();
RunOptions quick_run_options();

// What a run may ask for, from the command line or a resumed file alike: a
// stored warmup_runs of -1 must not become 2^64-1 warm-ups (issue 16).
struct RunOptionLimits {
    std::uint64_t max_size = std::uint64_t{1} << 40;  // 1 TiB
    int max_octave_step = 8;
    std::size_t max_sizes = 4096;
    std::size_t max_samples = 10'000'000;
    double max_time_budget_s = 3600;
    double max_budget_factor = 1000;
    std::size_t max_warmup_runs = 10'000;
    std::size_t max_variants = 100'000;
    unsigned max_workers = 1u << 16;
};
inline constexpr RunOptionLimits kRunOptionLimits{};

// Throws UsageError naming the first option outside kRunOptionLimits (or
// inconsistent: max below min, sizes not ascending within [min, max]).
void validate_run_options(const RunOptions& options);

// The one way options are stored (meta.options) and restored (--resume).
nlohmann::json run_options_to_json(const RunOptions& options);
// Throws UsageError "meta.options is malformed: ..." when a field is
// missing, of the wrong type or outside the limits above.
RunOptions run_options_from_json(const nlohmann::json& j);

// What of the options depends on this machine and this build, checked and
// resolved once before anything is measured, for a new run and a resumed
// file alike: every method option's value against the method's declaration
// (an option no method declares is refused), and the --under-load SPECs'
// routes on `graph` (options.method.load_routes, which point into `graph`).
// Throws UsageError naming the option.
void resolve_run_options(RunOptions& options, const Graph& graph, const Registry& registry);

}  // namespace hwcomm
