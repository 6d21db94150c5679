#pragma once
// What a record costs in wall time, before it is measured (issue 21, item 2):
// per method, a fixed cost per record (allocation, binding), a cost per size
// (warm-up, repetition calibration, the samples of a small transfer, every
// variant) and a cost per GiB of transfer size (samples, warm-up, pattern
// reset and check of a large transfer), and the size where a full sweep's
// plateau is expected to hold. Built-in constants come from a committed run
// (docs/benchmarks.md); --calibrate fits them from an earlier results file of
// this machine.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "measure/size_ladder.hpp"

namespace hwcomm {

struct MethodCost {
    double setup_s = 0;  // per record
    double point_s = 0;  // per size (and value of the method's other axes)
    double gib_s = 0;    // per GiB of transfer size, per size
    // The size where a full sweep's ladder is expected to stop (0: it is not
    // expected to: the largest size).
    std::uint64_t ladder_stop_bytes = std::uint64_t{256} << 20;
    std::size_t records = 0;        // how many records the constants were fitted on
    std::size_t min_samples = 5;    // the stopping rule they were measured with
    // A method without constants of its own: the method of its family whose
    // constants it takes (its curve costs about the same per size and GiB).
    std::string borrowed_from;
};

struct CostModel {
    std::map<std::string, MethodCost> methods;
    MethodCost fallback;      // a method the model has no constants for
    std::string source;       // "built-in: ..." or "calibrated from FILE"

    const MethodCost& of(const std::string& method) const;
    // One size of one record of `method`, measured with `min_samples`.
    double point_seconds(const std::string& method, std::uint64_t bytes, std::size_t min_samples) const;
    // A record measured at `sizes`, each at `combos` values of its other axes.
    double record_seconds(const std::string& method, const std::vector<std::uint64_t>& sizes, std::size_t combos,
                          std::size_t min_samples) const;
};

nlohmann::json cost_model_to_json(const CostModel& model);

// The catalog rows' constants (catalog/method_row.hpp CostConstants): fitted
// by fit_method_costs on the default run on nvidia-h200-x2 at revision 6a1be3b
// (docs/examples/h200x2/results-default-all-methods.json.gz); tests check
// they still match that file.
CostModel builtin_cost_model();

// Per-method constants fitted on a results file's measured records with
// context.elapsed_s. With points' own elapsed_s the sizes' costs are fitted
// directly; without (older files), a record's time is spread over its points
// in proportion to their sampled time (samples x max(median, 200 us)). The
// ladder stop: where the ladder stopped (records measured with one), or where
// it would have stopped on the record's points (records of a fixed sweep).
std::map<std::string, MethodCost> fit_method_costs(const ResultsFile& file, const LadderOptions& ladder = {});

// `base` with the methods fitted on `file` replacing its own constants.
CostModel calibrated_cost_model(const ResultsFile& file, const std::string& path, CostModel base);

// The sizes the ladder would measure on a record's own points (sizes the
// record lacks count as failed): how a fixed sweep's file tells where the
// plateau holds.
std::vector<std::uint64_t> replay_ladder(const Record& record, const std::vector<std::uint64_t>& candidates,
                                         const LadderOptions& options);

}  // namespace hwcomm
