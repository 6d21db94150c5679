#include "methods/cuda/common/cuda_check.hpp"

#include <cstdio>
#include <string>

#include "core/device_error.hpp"
#include "methods/cuda/common/cuda_error_text.hpp"

namespace hwcomm::cuda {

void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
    // Clear the error so a later, unrelated check does not report it again
    // (sticky errors stay; the message says so).
    (void)cudaGetLastError();
    // A DeviceError, so the engine can tell a lost context (sticky) from one failed call.
    const int code = static_cast<int>(err);
    throw DeviceError(describe_cuda_failure(code, cudaGetErrorName(err), cudaGetErrorString(err), expr, file, line),
                      "cuda", cudaGetErrorName(err), code, is_sticky_cuda_error(code));
}

void check_cuda(cudaError_t err, const char* expr, const char* file, int line) {
    if (err != cudaSuccess) throw_cuda_error(err, expr, file, line);
}

bool warn_cuda(cudaError_t err, const char* expr, const char* file, int line) noexcept {
    if (err == cudaSuccess) return true;
    (void)cudaGetLastError();
    // After a sticky error every release fails alike; the record already names
    // the error and the run prints one line for the lost context.
    if (is_sticky_cuda_error(static_cast<int>(err))) return false;
    try {
        const std::string msg = describe_cuda_failure(static_cast<int>(err), cudaGetErrorName(err),
                                                      cudaGetErrorString(err), expr, file, line);
        std::fprintf(stderr, "hwcomm: warning: %s\n", msg.c_str());
    } catch (...) {
        std::fprintf(stderr, "hwcomm: warning: %s failed: %s\n", expr, cudaGetErrorName(err));
    }
    return false;
}

}  // namespace hwcomm::cuda
