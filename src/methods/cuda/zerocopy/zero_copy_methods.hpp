#pragma once
// Kernels that read or write another processor's memory in place
// (methods_zero_copy.cpp): factories; register.cpp adds them.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

std::unique_ptr<Characterizer> make_zero_copy_read();
std::unique_ptr<Characterizer> make_zero_copy_write();

}  // namespace hwcomm::cuda
