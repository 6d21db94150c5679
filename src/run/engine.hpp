#pragma once
// The measurement engine: for each planned record, in plan order (every class
// representative before any confirmation), measure it as the plan says
// (run/planned_measure.hpp), keep its wall time (context.elapsed_s) beside its
// estimate (context.estimate_s), store it. A MeasurementError ends up in the
// record or point (status "error") and the run goes on.
#include <cstddef>
#include <optional>
#include <vector>

#include "core/results.hpp"
#include "run/engine_hooks.hpp"
#include "run/plan.hpp"
#include "run/point_measure.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

class Progress;

// Measures one record at the run's fixed sizes under its method's size policy
// (no ladder, no class plan: the cluster's pair phases, tests). With
// hooks.device_state, the context gets "device_state": {vertex id: {"before":
// ..., "after": ...}} for GPU endpoints. Any exception from preparing or
// measuring becomes the record's error (its type and message kept). nullopt
// when hooks->should_stop cut it short.
std::optional<Record> measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                      Progress* progress = nullptr, const EngineHooks* hooks = nullptr);

// Measures every planned record whose key is not in `results` yet (or is there
// only as "not measured" after a lost context) and that hooks.admit admits,
// appending each to results.records. A sticky device error ends the GPU part:
// the remaining GPU records are stored as "not measured" (run/device_loss.hpp),
// the others are measured. Returns the number of records measured.
std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks);

}  // namespace hwcomm
