#pragma once
// What the caller of the engine plugs in: saving after each record, progress,
// device state, interruption, and the budget's say over which records run.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm {

struct PlannedRecord;

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
    // (SIGINT/SIGTERM, the budget's hard end). A record cut short is not kept;
    // --resume measures it.
    std::function<bool()> should_stop;
    // Once, when a sticky device error lost the context (run_plan has then
    // stored every remaining GPU record as "not measured"): a one-line summary.
    std::function<void(const std::string&)> on_device_lost;
    // After a representative, already kept, was measured again beside its
    // class (its context.recheck just set, run/representative_recheck.hpp):
    // the caller may add to it (the host read probe's rates) and log it.
    std::function<void(Record&)> on_recheck;
    // After a class was measured once more (context.second_pass of its links,
    // run/second_pass.hpp): one line for the log.
    std::function<void(const std::string&)> on_second_pass;
    // The seconds a record is expected to take (kept as context.estimate_s);
    // null: none kept.
    std::function<double(const PlannedRecord&)> estimate;
    // The size where a record's ladder is expected to stop (the cost model's;
    // 0 or null: the largest size): its buffers are first sized for it.
    std::function<std::uint64_t(const PlannedRecord&)> expected_ladder_stop;
    // Before each record: false leaves it for --resume (deferred by the budget,
    // or no time left for it); null admits every record.
    std::function<bool(const PlannedRecord&)> admit;
};

}  // namespace hwcomm
