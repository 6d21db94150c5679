#pragma once
// Checked CUDA calls. HWCOMM_CUDA_CHECK(expr) throws DeviceError (a
// MeasurementError, core/device_error.hpp) with the call, file:line and the
// CUDA error's name and text; the engine records it on the record and the run
// goes on (a sticky error ends the GPU part). HWCOMM_CUDA_WARN(expr) is the
// noexcept form for destructors: it reports on stderr (not sticky errors,
// which every release after a lost context repeats) and returns whether the
// call worked.
#include <cuda_runtime_api.h>

#include "core/error.hpp"

namespace hwcomm::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line);
void check_cuda(cudaError_t err, const char* expr, const char* file, int line);
bool warn_cuda(cudaError_t err, const char* expr, const char* file, int line) noexcept;

}  // namespace hwcomm::cuda

#define HWCOMM_CUDA_CHECK(expr) ::hwcomm::cuda::check_cuda((expr), #expr, __FILE__, __LINE__)
#define HWCOMM_CUDA_WARN(expr) ::hwcomm::cuda::warn_cuda((expr), #expr, __FILE__, __LINE__)
