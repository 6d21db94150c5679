#pragma once
// Plain C++ header: the CLI includes it without any CUDA header.
#include "methods/characterizer.hpp"

namespace hwcomm {
// Adds the CUDA methods (memcpy-h2d, memcpy-d2h, memcpy-h2h, memcpy-d2d, ...).
void register_cuda_methods(Registry& registry);
// TEST ONLY: adds the fault-injecting methods (faults/fault_methods.hpp).
void register_cuda_fault_methods(Registry& registry);
}  // namespace hwcomm
