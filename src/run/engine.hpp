#pragma once
// The measurement engine: for each planned record, prepare a session, then per
// size and variant: warm-up, sample under the stopping rule, verify, record.
// A MeasurementError ends up in the record or point (status "error") and the
// run goes on.
#include <cstddef>
#include <functional>
#include <optional>
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
    bool progress = false;
    // State of a GPU endpoint worth keeping with each record (current clocks,
    // PCIe link state). Called before and after a record for each GPU endpoint;
    // null or returning null: nothing recorded.
    std::function<nlohmann::json(const Vertex&)> device_state;
    // Asked at every sample boundary and between records: true stops the run
    // (SIGINT/SIGTERM). A record cut short is not kept; --resume measures it.
    std::function<bool()> should_stop;
    // Once, when a sticky device error lost the context (run_plan has then
    // stored every remaining GPU record as "not measured"): a one-line summary.
    std::function<void(const std::string&)> on_device_lost;
};

// Measures one record. With hooks.device_state, the context gets
// "device_state": {vertex id: {"before": ..., "after": ...}} for GPU endpoints.
// Any exception from preparing or measuring becomes the record's error (its
// type and message kept). nullopt when hooks->should_stop cut it short.
std::optional<Record> measure_record(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                      Progress* progress = nullptr, const EngineHooks* hooks = nullptr);

// Measures every planned record whose key is not in `results` yet (or is there
// only as "not measured" after a lost context), appending each to
// results.records. A sticky device error ends the GPU part: the remaining GPU
// records are stored as "not measured" (run/device_loss.hpp), the others are
// measured. Returns the number of records measured.
std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks);

// The variant labels to measure: all, or max_variants of them (first, last and
// evenly spaced between).
std::vector<std::string> pick_variants(const std::vector<std::string>& all, std::size_t max_variants);

}  // namespace hwcomm
