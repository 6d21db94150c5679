#pragma once
#include "methods/characterizer.hpp"

namespace hwcomm {

// Adds every method this build provides: CPU and disk always, CUDA methods
// and gpumem when built with CUDA, and, first in the plan, the test-only
// fault methods when asked (CUDA builds; HWCOMM_TEST_FAULT_METHODS=1 in the CLI).
// The MPI methods are made per pair of ranks by run/cluster.
void register_built_methods(Registry& registry, bool with_test_fault_methods);

}  // namespace hwcomm
