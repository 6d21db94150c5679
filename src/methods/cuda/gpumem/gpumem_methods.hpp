#pragma once
// The GPU memory microbenchmarks (hwcomm gpumem, docs/gpumem.md): factories,
// one file each, and the function register.cpp calls.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda::gpumem {

std::unique_ptr<Characterizer> make_gpumem_latency();    // gpumem_latency.cpp
std::unique_ptr<Characterizer> make_tma_latency();       // gpumem_latency.cpp: the chase through the TMA unit
std::unique_ptr<Characterizer> make_loaded_latency();    // gpumem_latency.cpp: the chase while copies load its path
std::unique_ptr<Characterizer> make_gpumem_stride();     // gpumem_stride.cpp
std::unique_ptr<Characterizer> make_gpumem_occupancy();  // gpumem_occupancy.cpp
std::unique_ptr<Characterizer> make_gpumem_timeline();   // gpumem_timeline.cpp

// Adds every gpumem-* method.
void register_gpumem_methods(Registry& registry);

}  // namespace hwcomm::cuda::gpumem
