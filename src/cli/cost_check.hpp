#pragma once
// `hwcomm __generate cost-check`: a measured file's records estimated again
// with the built-in cost model (or one fitted on another file), per method
// and in total against their wall time, as a Markdown table
// (docs/benchmarks.md "The estimator, refit"; scripts/fit-cost-constants.sh).
#include <string>
#include <vector>

#include "run/plan_estimate.hpp"

namespace hwcomm::cli {

std::string cost_check_table(const std::vector<RecordedEstimate>& records);

}  // namespace hwcomm::cli
