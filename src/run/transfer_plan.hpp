#pragma once
// The plan of `hwcomm run --transfers FILE`: one record of method
// transfer-set per set of the file, in file order, instead of the methods'
// own plan. A set with a size measures that size only; a set without one
// the run's sizes.
#include <vector>

#include "methods/transfers/transfer_set_check.hpp"
#include "run/plan.hpp"

namespace hwcomm {

// Throws UsageError when the registry has no transfer-set method.
std::vector<PlannedRecord> build_transfer_plan(const Registry& registry, const std::vector<ResolvedSet>& sets);

}  // namespace hwcomm
