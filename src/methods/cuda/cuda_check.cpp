#include "methods/cuda/cuda_check.hpp"

#include <cstdio>
#include <string>

#include "methods/cuda/cuda_error_text.hpp"

namespace hwcomm::cuda {

void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
    // Clear the error so a later, unrelated check does not report it again
    // (sticky errors stay; the message says so).
    (void)cudaGetLastError();
    throw MeasurementError(
        describe_cuda_failure(static_cast<int>(err), cudaGetErrorName(err), cudaGetErrorString(err), expr, file, line));
}

void check_cuda(cudaError_t err, const char* expr, const char* file, int line) {
    if (err != cudaSuccess) throw_cuda_error(err, expr, file, line);
}

bool warn_cuda(cudaError_t err, const char* expr, const char* file, int line) noexcept {
    if (err == cudaSuccess) return true;
    (void)cudaGetLastError();
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
