#pragma once
#include "methods/characterizer.hpp"

namespace hwcomm {
// Adds cpu-read, cpu-write and memcpy.
void register_cpu_methods(Registry& registry);
}  // namespace hwcomm
