#pragma once
// What a record costs in wall time, before it is measured (issue 21): per
// method, a fixed cost per record (allocation, binding, the CPU methods'
// worker-count probes) and, per size band (a few octaves wide), what one
// point costs: the share of points that stop on the time budget costs about
// the budget per variant, whatever the size, so it scales with
// --time-budget; the share stopped for noise (after --noise-limit samples)
// scales with that; the share that converges scales with --min-samples. A
// ladder sweep measures more points than its first-pass sizes (the
// refinements where the curve bends): per band, how many per first-pass
// size. Built-in constants come from a committed run (run/builtin_cost_table.cpp,
// written by scripts/fit-cost-constants.sh); --calibrate fits them from an
// earlier results file of this machine (run/cost_fit.hpp).
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

#include "measure/stopping_rule.hpp"

namespace hwcomm {

// The bands' upper edges (a size below edge i is in band i; the last band is
// open): 64 KiB, 1 MiB, 16 MiB, 256 MiB.
inline constexpr std::array<std::uint64_t, 4> kCostBandEdges{std::uint64_t{64} << 10, std::uint64_t{1} << 20,
                                                             std::uint64_t{16} << 20, std::uint64_t{256} << 20};
inline constexpr std::size_t kCostBands = kCostBandEdges.size() + 1;
std::size_t cost_band(std::uint64_t bytes);

struct CostBand {
    double converged_s = 0;       // per point, the points that converged: scales with min_samples
    double budget_s = 0;          // per point, the points that stopped on the time budget: scales with it
    double noise_s = 0;           // per point, the points stopped for noise ("noise_limited"): scales with --noise-limit
    double points_per_size = 1;   // a ladder sweep's measured points per first-pass size
    std::size_t points = 0;       // the points fitted (0: the band takes its nearest fitted band's costs)
    double mean_bytes = 0;        // mean size of the fitted points (0: not known)
};

struct MethodCost {
    double setup_s = 0;          // per full sweep: its time outside its points
    double confirm_setup_s = 0;  // per confirmation (buffers for its largest size only, no worker-count probes)
    // The mean size the fitted full sweeps' sessions were first prepared for
    // (context.prepared.first_bytes, else their largest point; 0: not known).
    // A fixed sweep prepares for its largest size: buffers, fills and
    // worker-count probes grow with it.
    double setup_bytes = 0;
    std::array<CostBand, kCostBands> bands{};
    // The size where a full sweep's ladder is expected to stop (0: it is not
    // expected to: the largest size).
    std::uint64_t ladder_stop_bytes = std::uint64_t{256} << 20;
    std::size_t records = 0;       // how many records the constants were fitted on
    std::size_t min_samples = 5;   // the stopping rule they were measured with
    double time_budget_s = 0.2;
    std::size_t noise_limit_after = 0;  // 0: the run had no noise limit
    // Concurrency records: the mean count of lane endpoints of the records
    // fitted (0: none had several lanes). A planned record with another count
    // costs in proportion to its endpoints less one: allocations, fills,
    // checks and transfers are per lane (all-to-host on 4 GPUs has 4 lanes
    // where the 2-GPU table's had 2).
    double endpoints = 0;
    // A method without constants of its own: the method of its family whose
    // constants it takes (its curve costs about the same per size).
    std::string borrowed_from;

    // The band that prices `bytes`: its own, or the nearest fitted one.
    const CostBand& band_of(std::uint64_t bytes) const;
};

// The sizes a record is expected to measure: a ladder's first pass (each
// size then counts its band's points_per_size) or exactly these sizes.
struct ExpectedSizes {
    std::vector<std::uint64_t> sizes;
    bool ladder = false;
};

// The key a record's costs are looked up by: its method, with the values of
// the parameters its catalog row declares a fixed set of values for
// ("memcpy-d2h host_mem=pageable": a pageable copy costs ten times a pinned
// one; "memcpy-d2d peer=none" within one GPU), not those naming this
// machine's endpoints (numa).
std::string cost_key(const std::string& method, const std::map<std::string, std::string>& params);

struct CostModel {
    std::map<std::string, MethodCost> methods;  // by method, and by cost_key where the fit had such records
    MethodCost fallback;      // a method the model has no constants for
    std::string source;       // "built-in: ..." or "calibrated from FILE"
    std::string fitted_on;    // the results file the constants are fitted on (the built-in: relative to the repository)

    // A cost key's constants, else its method's, else the fallback.
    const MethodCost& of(const std::string& key) const;
    // One point (one size, one value of the other axes, every variant) of a
    // record of `key` (a method or a cost_key) under `stopping`.
    double point_seconds(const std::string& key, std::uint64_t bytes, const StoppingOptions& stopping) const;
    // A record measured at `sizes`, each at `combos` values of its other axes;
    // `confirmation`: its setup is a confirmation's; `endpoints`: the count of
    // its lanes' endpoints (0: a plain pair).
    double record_seconds(const std::string& key, const ExpectedSizes& sizes, std::size_t combos,
                          const StoppingOptions& stopping, bool confirmation = false,
                          std::size_t endpoints = 0) const;
};

nlohmann::json cost_model_to_json(const CostModel& model);

// The distinct endpoints of a group record's lanes (its src or dst written
// with '*' or '+'); 0 for a plain pair.
std::size_t lane_endpoints(const Record& record);

// The built-in constants (run/builtin_cost_table.cpp, fitted by
// fit_method_costs on the committed run it names; a test checks they still
// match that file), with borrowed constants for the bandwidth curves that
// have none and a fallback for the rest.
CostModel builtin_cost_model();

// The generated table and the run it was fitted on.
struct BuiltinCostTable {
    std::string description;  // "the default run on nvidia-h200-x2 at revision d8053dc"
    std::string results_file; // that run's file, relative to the repository
    std::map<std::string, MethodCost> methods;  // by method, and by cost_key where the fit had such records
};
const BuiltinCostTable& builtin_cost_table();

}  // namespace hwcomm
