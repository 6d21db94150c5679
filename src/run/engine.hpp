#pragma once
// The measurement engine: for each planned record, prepare a session, then per
// size and variant: warm-up, sample under the stopping rule, verify, record.
// A MeasurementError ends up in the record or point (status "error") and the
// run goes on.
#include <cstddef>
#include <functional>
#include <vector>

#include "core/results.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

class Progress;

struct EngineHooks {
    // After each finished record (the caller saves the results file).
    std::function<void(const Record&)> on_record;
    // Test hook: stop after this many records have been measured (0: never).
    std::size_t stop_after_records = 0;
    // Asked before each record; true: return now (an interrupted run).
    std::function<bool()> should_stop;
    bool progress = false;
    // State of a GPU endpoint worth keeping with each record (current clocks,
    // PCIe link state). Called before and after a record for each GPU endpoint;
    // null or returning null: nothing recorded.
    std::function<nlohmann::json(const Vertex&)> device_state;
};

// Measures one record. With hooks.device_state, the context gets
// "device_state": {vertex id: {"before": ..., "after": ...}} for GPU endpoints.
Record measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                      Progress* progress = nullptr, const EngineHooks* hooks = nullptr);

// Measures every planned record whose key is not in `results` yet, appending
// each to results.records. Returns the number of records measured.
std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks);

// The variant labels to measure: all, or max_variants of them (first, last and
// evenly spaced between).
std::vector<std::string> pick_variants(const std::vector<std::string>& all, std::size_t max_variants);

}  // namespace hwcomm
