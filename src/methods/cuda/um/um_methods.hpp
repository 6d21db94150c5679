#pragma once
// Unified (managed) memory (docs/um.md): factories; register.cpp adds them.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

std::unique_ptr<Characterizer> make_um_prefetch();  // methods_um_prefetch.cpp
std::unique_ptr<Characterizer> make_um_demand();    // methods_um_demand.cpp

}  // namespace hwcomm::cuda
