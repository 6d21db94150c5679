// hwcomm run: measure every applicable (method, src, dst, params) of this
// machine into a results file, written atomically after each record.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "measure/sweep.hpp"
#include "platform/atomic_file.hpp"
#include "platform/host_info.hpp"
#include "run/device_state.hpp"
#include "run/engine.hpp"
#include "run/results_io.hpp"

namespace hwcomm::cli {

namespace {

struct RunArgs {
    std::string output;  // empty: hwcomm-results.json
    bool force = false;
    std::string resume;
    std::string input;
    bool quick = false;
    std::string min_size, max_size, max_noise;
    int points_per_octave = 0;
    std::size_t min_samples = 0;
    double time_budget = 0;
    unsigned max_workers = 0;
    std::string timing;
    bool pool_half_gpu_memory = false;
    std::vector<std::string> filters;
};

double parse_noise(const std::string& text) {
    try {
        std::size_t used = 0;
        double v = std::stod(text, &used);
        std::string rest = text.substr(used);
        if (rest == "%") v /= 100;
        else if (!rest.empty()) throw std::invalid_argument(rest);
        if (!(v > 0 && v < 1)) throw std::out_of_range(text);
        return v;
    } catch (const std::logic_error&) {
        throw UsageError("--max-noise '" + text + "': expected a fraction in (0,1) such as 0.01, or a percentage such as 1%");
    }
}

RunOptions options_from_args(const RunArgs& a) {
    RunOptions o = a.quick ? quick_run_options() : default_run_options();
    if (!a.min_size.empty()) o.sweep.min_bytes = parse_size(a.min_size);
    if (!a.max_size.empty()) o.sweep.max_bytes = parse_size(a.max_size);
    if (a.points_per_octave) o.sweep.points_per_octave = a.points_per_octave;
    if (a.min_samples) o.stopping.min_samples = a.min_samples;
    if (!a.max_noise.empty()) o.stopping.max_noise = parse_noise(a.max_noise);
    if (!(a.time_budget >= 0 && std::isfinite(a.time_budget)))  // nan and inf too
        throw UsageError("--time-budget must be a positive number of seconds");
    if (a.time_budget > 0) o.stopping.time_budget_s = a.time_budget;
    if (a.max_workers) o.method.max_workers = a.max_workers;
    if (!a.timing.empty()) {
        if (a.timing != "wall" && a.timing != "event") throw UsageError("--timing must be wall or event");
        o.method.timing_mode = a.timing;
    }
    o.method.pool_half_gpu_memory = a.pool_half_gpu_memory;
    o.filters = a.filters;
    // Room for two buffers of the largest size (memcpy) and the rest of the system.
    const std::uint64_t avail = available_memory_bytes();
    o.sizes = sweep_sizes(o.sweep);
    if (avail > 0) o.sizes = cap_sizes(o.sizes, avail / 4);
    validate_run_options(o);  // the limits a resumed file must meet too
    return o;
}

bool measurement_options_given(const RunArgs& a) {
    return a.quick || !a.min_size.empty() || !a.max_size.empty() || a.points_per_octave || a.min_samples ||
           !a.max_noise.empty() || a.time_budget != 0 || a.max_workers || !a.timing.empty() || a.pool_half_gpu_memory || !a.filters.empty();
}

void check_output(const std::string& path, bool force) {
    const OutputTarget target = inspect_output(path);  // refuses directories, sockets, links out of the directory
    if (target.kind == OutputKind::InPlace)
        throw UsageError("cannot write " + path + ": not a regular file (a run rewrites its file after every record)");
    if (target.kind == OutputKind::RegularFile && !force)
        throw UsageError(path + " exists; use --force to overwrite it or --resume " + path + " to complete it");
    std::string why;
    if (!directory_writable_for(path, &why)) throw UsageError(why);
}

int run_command(const RunArgs& a) {
    if (!a.input.empty())
        throw UsageError("run measures this machine; --input " + a.input + " describes another one (use it with list or topo)");
    const bool resuming = !a.resume.empty();
    if (resuming && measurement_options_given(a))
        throw UsageError("--resume takes the sweep, sampling and filter options from the file; drop the others");
    if (resuming && !a.output.empty())
        throw UsageError("--resume writes back to " + a.resume + "; drop -o (copy the file first to keep the original)");
    std::string path = resuming ? a.resume : (a.output.empty() ? "hwcomm-results.json" : a.output);
    ResultsFile results;
    RunOptions options;
    if (resuming) {
        results = load_for_resume(a.resume, read_host_info().hostname);
        options = run_options_from_json(results.meta.at("options"));
        check_output(path, true);
    } else {
        options = options_from_args(a);
        check_output(path, a.force);
    }
    const Graph graph = discover_machine(DiscoverOptions{});
    const Registry registry = build_registry();
    const Filters filters(options.filters, registry, graph);
    const auto plan = build_plan(graph, registry, filters, options.method);
    if (plan.empty()) throw UsageError("nothing to measure: no method applies to the endpoints the filters select");

    if (resuming) {
        results.meta["resumed"].push_back({{"date_utc", utc_now_iso8601()}, {"command_line", process_command_line()}});
    } else {
        results = new_results(graph, process_command_line(), options);
        save_results(path, results);  // a valid (empty) file from the start
    }
    EngineHooks hooks;
    hooks.progress = isatty(STDERR_FILENO) == 1;
    const DeviceStateProbe probe;
    hooks.device_state = [&probe](const Vertex& gpu) { return probe.snapshot(gpu); };
    hooks.on_record = [&](const Record& record) {
        absorb_record_meta(results, record);
        save_results(path, results);
    };
    const std::size_t measured = run_plan(graph, plan, options, results, hooks);
    std::size_t errors = 0;
    for (const auto& r : results.records) errors += r.status != "ok";
    std::cout << "hwcomm run: " << measured << " record(s) measured, " << results.records.size() << " in " << path
              << (errors ? ", " + std::to_string(errors) + " with errors" : std::string()) << "\n";
    return 0;
}

// CLI11 accepts '' for a string option; an empty value is a mistake, not "use the default".
CLI::Validator non_empty() {
    return CLI::Validator([](std::string& v) { return v.empty() ? std::string("empty value") : std::string(); },
                          "NONEMPTY");
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<RunArgs>();
    auto* sub = app.add_subcommand("run", "measure bandwidth against size for every method and endpoint pair");
    sub->add_option("-o,--output", args->output, "results file to write (default hwcomm-results.json)")->check(non_empty());
    sub->add_flag("--force", args->force, "overwrite an existing --output file");
    sub->add_option("--resume", args->resume, "complete an interrupted results file (measures only missing records)")->check(non_empty());
    sub->add_option("--input", args->input, "hwloc XML of another machine: refused (run measures this machine)");
    sub->add_flag("--quick", args->quick, "coarse first look: 4 KiB..64 MiB every 4x, 3 samples, short budgets, <= 3 worker counts");
    sub->add_option("--min-size", args->min_size, "smallest transfer (1, 4K, 64MiB, 1G; default 1)")->check(non_empty());
    sub->add_option("--max-size", args->max_size, "largest transfer (default 1GiB, capped by free memory)")->check(non_empty());
    sub->add_option("--points-per-octave", args->points_per_octave, "1 (powers of two) or 3")->check(CLI::IsMember({1, 3}));
    sub->add_option("--min-samples", args->min_samples, "samples per size before convergence is judged (default 5)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--max-noise", args->max_noise, "stop when the median's 95% CI half-width is within this (default 1%)")->check(non_empty());
    sub->add_option("--time-budget", args->time_budget, "sampling seconds per size and variant (default 0.2, quick 0.05)");
    sub->add_option("--max-workers", args->max_workers, "cap on worker threads of the CPU methods (default: all cores)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--timing", args->timing, "CUDA methods: event (default) or wall")->check(non_empty());
    sub->add_flag("--pool-half-gpu-memory", args->pool_half_gpu_memory,
                  "CUDA methods: size device buffers at half the GPU's memory, as the original study did");
    sub->add_option("--filter", args->filters,
                    "KEY=PATTERN, KEY method|src|dst, PATTERN a name or glob; repeatable (same key: OR, keys: AND)")
        ->check(non_empty());
    sub->callback([&action, args] { action = [args] { return run_command(*args); }; });
}

}  // namespace hwcomm::cli
