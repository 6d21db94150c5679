#pragma once
// One record: prepare its session, then per combination of the method's axes
// and per size (every size of a fixed plan, or up the ladder) one point.
// Any exception from preparing or measuring becomes the record's error.
#include <optional>

#include "run/device_loss.hpp"
#include "run/engine_hooks.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

class Progress;

// nullopt when hooks->should_stop cut it short. `failure`: the device failure
// the record met; a lost context stops the record at once, keeping the points
// measured before. Progress counts `progress_units` per record.
std::optional<Record> measure_sized_record(const Graph& graph, const PlannedRecord& planned, const SizePlan& sizes,
                                           const RunOptions& options, Progress* progress, std::size_t progress_units,
                                           const EngineHooks* hooks, std::optional<DeviceFailure>& failure);

}  // namespace hwcomm
