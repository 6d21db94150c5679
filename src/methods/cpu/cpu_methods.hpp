#pragma once
// Factories of the CPU methods (register.cpp adds them to a registry).
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm {
std::unique_ptr<Characterizer> make_cpu_read();
std::unique_ptr<Characterizer> make_cpu_write();
std::unique_ptr<Characterizer> make_cpu_memcpy();
}  // namespace hwcomm
