// hwcomm run: measure every applicable (method, src, dst, params) of this
// machine into a results file, written atomically as records finish (paced:
// see on_record), with one line per finished record on stderr. Exit codes (docs/cli.md): 0 finished and
// every record ok, 3 finished with error records, 4 interrupted, 2 bad input.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "classes/link_classes.hpp"
#include "cli/cmd_run_args.hpp"
#include "cli/cmd_run_cluster.hpp"
#include "cli/cmd_run_plan.hpp"
#include "cli/cmd_run_records.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "measure/sweep.hpp"
#include "platform/atomic_file.hpp"
#include "platform/host_info.hpp"
#include "platform/interrupt.hpp"
#include "run/cost_model.hpp"
#include "run/device_state.hpp"
#include "run/host_read_probe.hpp"
#include "run/engine.hpp"
#include "catalog/row_json.hpp"
#include "io/results_file.hpp"
#include "io/results_meta.hpp"
#include "io/run_state.hpp"
#include "report/text/record_line.hpp"
#include "run/progress.hpp"
#include "run/representative_recheck.hpp"
#include "methods/under_load.hpp"
#include "methods/transfers/transfer_presets.hpp"
#include "methods/transfers/transfer_set_method.hpp"
#include "core/input_file.hpp"
#include "run/transfer_plan.hpp"
#include "run/not_planned.hpp"
#include "run/plan_estimate.hpp"

namespace hwcomm::cli {

namespace {

void check_output(const std::string& path, bool force) {
    const OutputTarget target = inspect_output(path);  // refuses directories, sockets, links out of the directory
    if (target.kind == OutputKind::InPlace)
        throw UsageError("cannot write " + path + ": not a regular file (a run rewrites its file after every record)");
    if (target.kind == OutputKind::RegularFile && !force)
        throw UsageError(path + " exists; use --force to overwrite it or --resume " + path + " to complete it");
    std::string why;
    if (!directory_writable_for(path, &why)) throw UsageError(why);
}

// Why the CUDA methods measure nothing on this machine, or "" when they can.
std::string cuda_skip_reason(const Graph& graph) {
    const std::size_t gpus = graph.of_kind(VertexKind::Gpu).size();
#ifndef HWCOMM_HAVE_CUDA
    return "this build has no CUDA methods (configured without CUDA)" +
           (gpus ? ": the " + std::to_string(gpus) + " GPU(s) found are not measured" : std::string());
#else
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        if (v->gpu && v->gpu->cuda_ordinal >= 0) return "";
    for (const auto& note : graph.notes)
        if (note.rfind("CUDA runtime:", 0) == 0) return note;
    return gpus ? "the CUDA runtime reported none of the " + std::to_string(gpus) + " GPU(s) found" : "no GPU found";
#endif
}

void warn(const std::string& text) { std::cerr << "hwcomm: warning: " << text << "\n"; }

ResultsFile load_resumable(const std::string& path, const Graph& graph) {
    if (is_gzip_file(path))
        throw UsageError("--resume: " + path + " is compressed; gunzip it first (hwcomm rewrites plain JSON)");
    return load_for_resume(path, this_machine_fingerprint(graph));
}

RunOptions options_of(const ResultsFile& results, const std::string& path) {
    try {
        return run_options_from_json(results.meta.at("options"));
    } catch (const std::exception& e) {
        throw UsageError("--resume: " + path + ": " + e.what());
    }
}

int run_command(const RunArgs& a) {
    const bool resuming = !a.resume.empty();
    const bool cluster = a.cluster.mpi || a.cluster.nodes || !a.cluster.node_name.empty();
    const bool plan_only = a.cluster.plan && !cluster;
    if (!plan_only && !a.plan.input.empty())
        throw UsageError("run measures this machine; --input " + a.plan.input + " describes another one (use it with --plan, list or topo)");
    if (!plan_only && !a.plan.nvml_replay.empty())
        throw UsageError("run measures this machine; --nvml-replay goes with --plan (or topo)");
    if (a.plan.json && !plan_only) throw UsageError("--json goes with --plan (the plan as JSON)");
    if (a.cluster.plan && resuming)
        throw UsageError("--plan prints what a new run would measure; --resume completes a file: use one of them");
    (void)budget_seconds(a.plan);  // a malformed --budget: exit 2 before anything else
    if (!a.transfers.empty() && (cluster || a.cluster.plan || !a.plan.budget.empty() || !a.plan.calibrate.empty()))
        throw UsageError("--transfers measures the sets of its file on this machine; --mpi, --nodes, --plan, --budget "
                         "and --calibrate plan the methods' own records: give one or the other");
    if (cluster) {
        if (resuming) throw UsageError("--resume completes a single-node file; it does not apply to --mpi or --plan");
        if (!a.plan.budget.empty() || !a.plan.calibrate.empty() || a.exhaustive)
            throw UsageError("--budget, --calibrate and --exhaustive plan one node; they do not apply to --mpi or --nodes");
        const std::string out = a.output.empty() ? "hwcomm-results.json" : a.output;
        return run_cluster_command(a.cluster, options_from_args(a), out,
                                   [&a](const std::string& p) { check_output(p, a.force); });
    }
    if (plan_only) return print_run_plan(a.plan, options_from_args(a));
    if (const std::string given = measurement_option_given(a); resuming && !given.empty())
        throw UsageError("--resume takes the sweep, sampling, method and filter options from the file; drop " + given);
    if (resuming && !a.output.empty())
        throw UsageError("--resume writes back to " + a.resume + "; drop -o (copy the file first to keep the original)");
    const std::string path = resuming ? a.resume : (a.output.empty() ? "hwcomm-results.json" : a.output);
    if (!a.transfers.empty() && !a.filters.empty())
        throw UsageError("--transfers measures the sets of its file; --filter selects from the methods' own plan: "
                         "give one or the other");
    // A file's syntax is checked before anything else; a preset needs the machine's graph.
    std::optional<TransferSetFile> transfer_file;
    if (!a.transfers.empty() && !is_transfer_preset(a.transfers))
        transfer_file = parse_transfer_sets(
            read_regular_input_file(a.transfers, "transfer-set file", kMaxTransferSetFileBytes), a.transfers);
    RunOptions options;
    if (!resuming) {
        options = options_from_args(a);
        check_output(path, a.force);
    }
    const Graph graph = discover_machine(DiscoverOptions{});
    ResultsFile results;
    if (resuming) {
        results = load_resumable(path, graph);  // refuses another machine's file, untouched
        options = options_of(results, path);
        std::string why;
        if (!directory_writable_for(path, &why)) throw UsageError("cannot write " + path + ": " + why);
    }
    const Registry registry = build_registry();
    try {  // a resumed file's options as strictly as the command line's
        resolve_run_options(options, graph, registry);
    } catch (const UsageError& e) {
        throw UsageError((resuming ? "--resume: " + path + ": meta.options: " : std::string()) + e.what());
    }
    if (!resuming && transfer_file) set_transfer_sets(*transfer_file, options);
    if (!transfer_file && !options.method.transfer_sets.empty())  // a resumed --transfers run
        transfer_file = parse_transfer_sets(options.method.transfer_sets,
                                            options.method.transfer_sets_source + " (as kept in " + path + ")");
    if (!resuming && !a.transfers.empty() && is_transfer_preset(a.transfers)) {
        transfer_file = preset_transfer_sets(graph, a.transfers);
        set_transfer_sets(*transfer_file, options);
    }
    const Filters filters(options.filters, registry, graph);
    // A --transfers run measures its file's sets in file order, each in full; otherwise the planner's records.
    const RunPlan run_plan_ = transfer_file ? transfer_run_plan(graph, registry, *transfer_file, options)
                                            : plan_for_run(graph, registry, options, a.plan, true);
    options = run_plan_.options;  // with the budget's steps
    const auto& plan = run_plan_.records;
    if (resuming) check_resumed_records(results, plan, path);

    // Nothing is written before this point: bad input leaves every file as it was.
    if (resuming)
        results.meta["resumed"].push_back({{"date_utc", utc_now_iso8601()},
                                           {"command_line", process_command_line()},
                                           {"plan", run_plan_summary_json(run_plan_)}});
    else results = new_results(graph, process_command_line(), run_options_to_json(options));
    if (!resuming) results.meta["plan"] = run_plan_summary_json(run_plan_);
    // The identical-link classes of what this run measures (docs/classes.md), for analyze and the report.
    std::vector<ClassMember> members;
    for (const auto& p : plan) {
        if (p.round.empty()) members.push_back({p.src_id, p.dst_id});
        for (const auto& lane : p.round) members.push_back({lane.src_id, lane.dst_id});
    }
    results.link_classes = class_map_to_json(classify(graph, members));
    const unsigned cpus = std::thread::hardware_concurrency();  // logical CPUs, as the load average counts
    const LoadAverage load = read_load_average();
    const std::size_t planned_records = written_record_count(plan);
    begin_run_state(results.meta, planned_records, load, cpus, utc_now_iso8601());
    set_completed_records(results.meta, results.records.size());
    if (const std::string why = cuda_skip_reason(graph); !why.empty()) {
        warn("CUDA methods skipped: " + why);
        results.meta["run"]["cuda_skipped"] = why;
    }
    if (const std::string w = load_warning(load, cpus, other_running_commands()); !w.empty()) warn(w);
    // Each method without a record and why, for summary (recomputed on a resume).
    results.meta["run"]["not_measured"] = methods_without_records_json(
        methods_without_records(graph, registry, filters, plan, transfer_file.has_value()));
    keep_method_rows(results, registry.catalog());
    save_results(path, results);  // a valid file from the start
    // The host's memory read rate between records (run/host_read_probe.hpp), this invocation's series.
    HostReadSeries host_read(results.meta);

    const bool tty = isatty(STDERR_FILENO) == 1;
    std::size_t measured_now = 0;
    EngineHooks hooks;
    hooks.progress = tty;
    const DeviceStateProbe probe;
    hooks.device_state = [&probe](const Vertex& gpu) { return probe.snapshot(gpu); };
    const InterruptHandlers interrupts;  // SIGINT/SIGTERM: stop at the next sample boundary, save, exit 4
    // The budget: a record that would end past it is left for --resume; sampling
    // stops when the budget's allowed overrun is nearly spent.
    std::optional<BudgetClock> clock;
    if (run_plan_.budget) clock.emplace(run_plan_.budget->budget_s);
    std::map<std::string, std::size_t> index_of;
    for (std::size_t i = 0; i < plan.size(); ++i) index_of[plan[i].key] = i;
    std::size_t left_by_budget = 0;
    hooks.estimate = [&](const PlannedRecord& p) { return run_plan_.estimate.record_s[index_of.at(p.key)]; };
    hooks.expected_ladder_stop = [&](const PlannedRecord& p) { return expected_ladder_stop(p, run_plan_.costs); };
    hooks.admit = [&](const PlannedRecord& p) {
        const std::size_t i = index_of.at(p.key);
        const bool in = !run_plan_.deferred[i] && (!clock || clock->admits(run_plan_.estimate.record_s[i]));
        left_by_budget += !in;
        return in;
    };
    bool out_of_time = false;
    hooks.should_stop = [&] {
        if (clock && clock->spent()) out_of_time = true;
        return out_of_time || interrupt_requested() || (a.stop_after_records && measured_now >= a.stop_after_records);
    };
    // A save rewrites the whole file, which grows with every record: on
    // nvidia-h200-x4 (890987b) 369 saves of a file growing to 17 MB took about
    // 35 s of a 337 s run, and the cost grows with the square of the records.
    // So a save waits until ten times its own last cost has passed, and at
    // least 2 s; the run's end, an interrupt, the budget and a device loss
    // always save. A process killed outright loses at most those seconds of
    // records, which --resume measures again.
    auto last_save = std::chrono::steady_clock::now();
    double save_cost_s = 0;
    hooks.on_record = [&](const Record& record) {
        ++measured_now;
        host_read.after_record(results.records.back());  // run_plan appended `record` there
        stamp_measured_provenance(results.records.back());
        absorb_record_meta(results, record);
        set_completed_records(results.meta, results.records.size());
        keep_method_rows(results, registry.catalog());  // readers of any build know what the records mean
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_save).count() >= std::max(2.0, 10 * save_cost_s)) {
            save_results(path, results);
            last_save = std::chrono::steady_clock::now();
            save_cost_s = std::chrono::duration<double>(last_save - now).count();
        }
        // A log line even into a file or pipe; on a terminal it replaces the progress line.
        std::cerr << (tty ? "\r\033[K" : "") << text::record_line(record, registry.catalog().find(record.method), &graph,
                                                                results.records.size(), planned_records)
                  << std::endl;
    };
    // A sticky device error: one line, the reason kept in the file, which is saved at once.
    if (results.meta["run"].is_object()) results.meta["run"].erase("device_lost");  // a resume measures those again
    hooks.on_device_lost = [&](const std::string& summary) {
        std::cerr << (tty ? "\r\033[K" : "") << "hwcomm: " << summary << std::endl;
        results.meta["run"]["device_lost"] = summary;
        set_completed_records(results.meta, results.records.size());
        save_results(path, results);
    };
    hooks.on_recheck = [&](Record& representative) {
        host_read.after_recheck(representative);
        std::cerr << (tty ? "\r\033[K" : "") << "  " << recheck_line(representative.key, representative.context["recheck"])
                  << std::endl;
    };
    hooks.on_second_pass = [&](const std::string& line) {
        std::cerr << (tty ? "\r\033[K" : "") << "  " << line << std::endl;
    };
    run_plan(graph, plan, options, results, hooks);
    host_read.finish();
    end_run_state(results.meta, every_planned_record_present(plan, results), utc_now_iso8601());
    save_results(path, results);

    std::size_t errors = 0, skipped = 0;
    for (const auto& r : results.records) {
        errors += r.status == "error";
        skipped += r.status == "skipped";
    }
    int code = run_exit_code(results);
    // Cut by its budget, not interrupted: the run did what was asked.
    const bool budget_cut = code == kExitInterrupted && (out_of_time || left_by_budget) && !interrupt_requested() &&
                            !(a.stop_after_records && measured_now >= a.stop_after_records);
    if (budget_cut) {
        code = errors ? kExitRecordErrors : 0;
        results.meta["run"]["budget_cut"] = planned_records - std::min(planned_records, results.records.size());
        save_results(path, results);
        std::cerr << "hwcomm: budget spent after " << duration_text(clock ? clock->elapsed_s() : 0) << ": "
                  << planned_records - std::min(planned_records, results.records.size()) << " record(s) left; complete the file with: hwcomm run --resume "
                  << path << "\n";
    }
    if (code == kExitInterrupted)  // also on stderr: a batch job's stdout may go nowhere
        std::cerr << "hwcomm: interrupted; complete the file with: hwcomm run --resume " << path << "\n";
    std::cout << "hwcomm run: " << measured_now << " record(s) measured, " << results.records.size() << " of "
              << planned_records << " in " << path << (errors ? ", " + std::to_string(errors) + " with errors" : std::string())
              << (skipped ? ", " + std::to_string(skipped) + " skipped (the machine lacks what they need)" : std::string())
              << (code == kExitInterrupted ? "; interrupted: complete it with --resume " + path : std::string())
              << (budget_cut ? "; the budget left the rest for --resume " + path : std::string()) << "\n";
    return code;
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
    const auto measured = [args](CLI::Option* option) {
        args->measurement.push_back(option);
        return option;
    };
    sub->add_option("-o,--output", args->output, "results file to write (default hwcomm-results.json)")->check(non_empty());
    sub->add_flag("--force", args->force, "overwrite an existing --output file");
    sub->add_option("--resume", args->resume, "complete an interrupted results file (measures only missing records)")->check(non_empty());
    sub->add_option("--input", args->plan.input, "with --plan: the hwloc XML export of the machine to plan for")->check(non_empty());
    sub->add_option("--nvml-replay", args->plan.nvml_replay, "with --plan: replay that machine's NVML answers (a recording)")
        ->check(non_empty());
    sub->add_flag("--json", args->plan.json, "with --plan: the plan as JSON (estimate_s, records, classes, every record)");
    sub->add_option("--budget", args->plan.budget,
                    "fit the plan into DURATION (90s, 10m, 1h30m) by the documented steps; the run ends within it + 10%")
        ->check(non_empty());
    measured(sub->add_flag("--exhaustive", args->exhaustive,
                  "every record a full sweep of the fixed sizes (no classes, no ladder): the plan before issue 21"));
    sub->add_option("--calibrate", args->plan.calibrate,
                    "estimate from the per-record times of an earlier results file of this machine")
        ->check(non_empty());
    measured(sub->add_flag("--quick", args->quick, "coarse first look: 4 KiB..64 MiB every 4x, 3 samples, short budgets, <= 3 worker counts"));
    measured(sub->add_option("--min-size", args->min_size, "smallest transfer in bytes; K/M/G (or KiB/MiB/GiB, any case) are binary: 4K = 4096 (default 1)")->check(non_empty()));
    measured(sub->add_option("--max-size", args->max_size, "largest transfer, same units: 64M, 1G (default 1G, capped by free memory)")->check(non_empty()));
    measured(sub->add_option("--points-per-octave", args->points_per_octave, "1 (powers of two) or 3")->check(CLI::IsMember({1, 3})));
    measured(sub->add_option("--min-samples", args->min_samples, "samples per size before convergence is judged (default 5)")
        ->check(CLI::PositiveNumber));
    measured(sub->add_option("--max-noise", args->max_noise, "stop when the median's 95% CI half-width is within this (default 1%)")->check(non_empty()));
    measured(sub->add_option("--noise-limit", args->noise_limit,
                             "stop a size after N samples when its spread puts --max-noise out of the budget's reach "
                             "(stop_reason noise_limited; default 10, 0: sample to the budget)")
                 ->check(non_empty() & CLI::Range(std::size_t{0}, kRunOptionLimits.max_samples)));
    measured(sub->add_option("--time-budget", args->time_budget, "sampling seconds per size and variant (default 0.2, quick 0.05)"));
    measured(sub->add_option("--max-workers", args->max_workers, "cap on worker threads of the CPU methods (default: all cores)")
        ->check(CLI::PositiveNumber));
    measured(sub->add_option("--timing", args->timing, "CUDA methods: event (default) or wall")->check(non_empty()));
    measured(sub->add_flag("--pool-half-gpu-memory", args->pool_half_gpu_memory,
                  "CUDA methods: size device buffers at half the GPU's memory, as the original study did"));
    measured(sub->add_option("--filter", args->filters,
                    "KEY=PATTERN, KEY method|src|dst, PATTERN a name or glob; repeatable (same key: OR, keys: AND)")
        ->check(non_empty()));
    measured(sub->add_option("--transfers", args->transfers,
                    "measure only the transfer sets of FILE (one transfer per line: set, executor ce|sm|tma|cpu, src, "
                    "dst, size[, host_mem]; each set's transfers start together), or preset:all-to-all|ring|"
                    "bisection[:sm][:SIZE] (docs/transfers.md)")
        ->check(non_empty()));
    measured(sub->add_option("--under-load", args->under_load,
                    "measure while background lanes keep a route busy: 'memcpy-h2d numa0->gpu1', 'memcpy-d2h "
                    "GPU->NUMA', 'memcpy-peer GPU->GPU', 'all-to-host [NUMA]', 'host-to-all [NUMA]', 'all-to-one GPU', "
                    "'one-to-all GPU'; repeatable (docs/under-load.md)")
        ->check(non_empty()));
    add_cluster_options(*sub, args->cluster);
    // Test hook, hidden from --help: stop after N records as an interrupt would.
    sub->add_option("--stop-after-records", args->stop_after_records)->group("");
    // The methods' own options, declared once by each method.
    args->declared_specs = build_registry().option_specs();
    for (const OptionSpec& spec : args->declared_specs) {
        std::string doc = spec.doc + " (" + to_string(spec.type) +
                          (spec.default_value.empty() ? "" : ", default " + spec.default_value) + ")";
        if (spec.type == OptionType::Flag)
            measured(sub->add_flag("--" + spec.name, args->declared_flags[spec.name], doc))->group("Method options");
        else
            measured(sub->add_option("--" + spec.name, args->declared[spec.name], doc))->group("Method options");
    }
    sub->callback([&action, args] { action = [args] { return run_command(*args); }; });
}

}  // namespace hwcomm::cli
