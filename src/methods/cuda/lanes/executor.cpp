#include "methods/cuda/lanes/executor.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/kernels.hpp"
#include "methods/cuda/common/tma_kernels.hpp"

namespace hwcomm::cuda {

Executor executor_from_string(const std::string& text) {
    if (text == "ce") return Executor::CopyEngine;
    if (text == "sm") return Executor::Sm;
    if (text == "tma") return Executor::Tma;
    throw UsageError("unknown copy mode '" + text + "' (ce|sm|tma)");
}

const char* to_string(Executor executor) {
    switch (executor) {
        case Executor::CopyEngine: return "ce";
        case Executor::Sm: return "sm";
        case Executor::Tma: return "tma";
    }
    return "?";
}

std::string describe(Executor executor) {
    switch (executor) {
        case Executor::CopyEngine: return "copy engines: cudaMemcpyAsync / cudaMemcpyPeerAsync, one stream per lane";
        case Executor::Sm:
            return "copy kernels: 16-byte loads and stores through a peer or mapped host pointer, one stream per lane";
        case Executor::Tma:
            return "bulk copies (TMA, cp.async.bulk) through shared memory, one thread per block issuing, one stream "
                   "per lane";
    }
    return "";
}

EnqueueCopy executor_copy(Executor executor, std::byte* dst, const std::byte* src, int sm_count) {
    switch (executor) {
        case Executor::CopyEngine:
            // Unified addressing tells host, device and peer memory apart.
            return [dst, src](std::size_t bytes, cudaStream_t s) {
                HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
            };
        case Executor::Sm:
            return [dst, src, sm_count](std::size_t bytes, cudaStream_t s) {
                launch_copy_kernel(s, dst, src, bytes, sm_count);
            };
        case Executor::Tma:
            return [dst, src](std::size_t bytes, cudaStream_t s) {
                launch_tma_copy(s, dst, src, bytes);
            };
    }
    throw MeasurementError("internal: unknown executor");
}

}  // namespace hwcomm::cuda
