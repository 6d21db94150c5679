#pragma once
// Everything that decides what a run measures and how; stored in the results
// file's meta.options so --resume measures the rest exactly the same way.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "measure/stopping_rule.hpp"
#include "measure/sweep.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm {

struct RunOptions {
    SweepOptions sweep;
    std::vector<std::uint64_t> sizes;  // from sweep, capped by free memory
    StoppingOptions stopping;
    MethodOptions method;
    std::size_t warmup_runs = 1;       // untimed transfers per size and variant
    std::size_t max_variants = 0;      // 0: all; else first, last and evenly spaced between
    bool quick = false;
    std::vector<std::string> filters;  // --filter specs
};

// The defaults of `hwcomm run` and of `hwcomm run --quick`.
RunOptions default_run_options();
RunOptions quick_run_options();

nlohmann::json run_options_to_json(const RunOptions& options);
// Throws std::runtime_error when a field is missing or malformed.
RunOptions run_options_from_json(const nlohmann::json& j);

}  // namespace hwcomm
