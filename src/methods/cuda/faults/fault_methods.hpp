#pragma once
// TEST ONLY (issue 16): methods that inject device faults, so the GPU tests can
// check what a run does with them. The CLI registers them only when the
// environment has HWCOMM_TEST_FAULT_METHODS=1; a normal `hwcomm list` or run
// never sees them. Each applies to every CUDA GPU, against itself:
//   fault-alloc   prepare asks cudaMalloc for 1 GiB more than is free
//   fault-peer    prepare enables peer access from the GPU to itself (refused)
//   fault-kernel  a store kernel, correct below kFaultFromBytes, then writing
//                 to an unmapped address: cudaErrorIllegalAddress (sticky)
//   fault-vanish  memcpy-d2d whose calls fail from kFaultFromBytes on as if the
//                 GPU fell off the bus (VanishingSession, a test seam)
#include <cstddef>
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

// Sizes below this are measured correctly; the fault hits the first size at or above.
inline constexpr std::size_t kFaultFromBytes = 64 * 1024;

inline constexpr const char* kFaultMethodsEnv = "HWCOMM_TEST_FAULT_METHODS";

// `memcpy_d2d`: the method fault-vanish wraps (register.cpp passes it: a
// family depends on the helpers and the lanes only, not on another family).
void register_fault_methods(Registry& registry, std::unique_ptr<Characterizer> memcpy_d2d);

}  // namespace hwcomm::cuda
