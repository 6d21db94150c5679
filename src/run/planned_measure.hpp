#pragma once
// A planned record measured as the plan says (issue 21, item 4): a full sweep
// (its ladder, or the sizes its ladder group already chose), or a
// confirmation at a few sizes of its representative's curve, promoted to the
// full sweep when it lies outside the representative's spread. The record
// says which: measured_as "full", "confirmed" or "promoted".
#include <optional>

#include "core/results.hpp"
#include "run/device_loss.hpp"
#include "run/engine_hooks.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

class Progress;

// `results`: the records measured so far (representatives, ladder groups).
std::optional<Record> measure_as_planned(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                         const ResultsFile& results, Progress* progress, const EngineHooks* hooks,
                                         std::optional<DeviceFailure>& failure);

}  // namespace hwcomm
