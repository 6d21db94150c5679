#pragma once
// Factories of the CPU methods (register.cpp adds them to a registry).
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm {
std::unique_ptr<Characterizer> make_cpu_read();
std::unique_ptr<Characterizer> make_cpu_write();
std::unique_ptr<Characterizer> make_cpu_memcpy();
std::unique_ptr<Characterizer> make_cpu_copy();
std::unique_ptr<Characterizer> make_cpu_triad();
std::unique_ptr<Characterizer> make_cpu_latency();
std::unique_ptr<Characterizer> make_cpu_loaded_latency();
std::unique_ptr<Characterizer> make_cpu_bandwidth_mix();
}  // namespace hwcomm
