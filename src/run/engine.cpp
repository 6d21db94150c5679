#include "run/engine.hpp"

#include <chrono>

#include "run/device_loss.hpp"
#include "run/planned_measure.hpp"
#include "run/progress.hpp"
#include "run/record_measure.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

std::optional<Record> measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                     Progress* progress, const EngineHooks* hooks) {
    std::optional<DeviceFailure> failure;
    SizePlan plan = own_size_plan(planned.sizes);  // a --transfers set of one size
    if (planned.sizes.empty()) {
        plan.sizes = fixed_sizes(*planned.method, options);
        plan.prepare_bytes = options.sizes.empty() ? 0 : options.sizes.back();
    }
    return measure_sized_record(graph, planned, plan, options, progress, options.sizes.size(), hooks, failure);
}

std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks) {
    std::vector<const PlannedRecord*> todo;
    for (const auto& p : plan) {
        const Record* done = results.find(p.key);
        if (!done || is_not_measured(*done)) todo.push_back(&p);
    }
    Progress progress(hooks.progress, todo.size() * options.sizes.size());
    std::size_t measured = 0;
    std::optional<DeviceLoss> loss;  // set once: the sticky failure that ended the GPU part
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const PlannedRecord* p = todo[i];
        if (loss && needs_gpu(*p)) {
            progress.skip_units(options.sizes.size());
            continue;  // kept as "not measured" when the context was lost
        }
        if (hooks.stop_after_records && measured >= hooks.stop_after_records) break;
        if (hooks.should_stop && hooks.should_stop()) break;
        if (hooks.admit && !hooks.admit(*p)) {
            progress.skip_units(options.sizes.size());
            continue;  // left for --resume
        }
        const double estimate = hooks.estimate ? hooks.estimate(*p) : -1;
        std::optional<DeviceFailure> failure;
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> record = measure_as_planned(graph, *p, options, results, &progress, &hooks, failure);
        if (!record) break;
        // The record's whole cost (set-up, warm-ups, checks, samples; a promotion's
        // confirmation too): what a run's length is made of, beside what was expected.
        record->context["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (estimate >= 0) record->context["estimate_s"] = estimate;
        store_record(results, std::move(*record));
        ++measured;
        if (hooks.on_record) hooks.on_record(results.records.back());
        if (!loss && failure && failure->context_lost) {
            loss = DeviceLoss{*failure, p->key};
            const std::vector<const PlannedRecord*> rest(todo.begin() + static_cast<std::ptrdiff_t>(i) + 1, todo.end());
            const std::size_t n = keep_gpu_records_not_measured(rest, *loss, results);
            if (hooks.on_device_lost) hooks.on_device_lost(describe_loss(*loss, n));
        }
    }
    return measured;
}

}  // namespace hwcomm
