#include "methods/cuda/gpumem/stride_once.hpp"

#include <string>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/gpumem/gpumem_common.hpp"
#include "methods/cuda/gpumem/gpumem_kernels.hpp"

namespace hwcomm::cuda::gpumem {

void launch_each_stride_once(int ordinal, std::uint64_t bytes, const std::vector<StrideCase>& cases) {
    const GpuMemFacts facts = gpu_mem_facts(ordinal);
    DeviceCounter counter(ordinal);
    DeviceBuffer data(ordinal, bytes);
    ScopedDevice on(ordinal);
    HWCOMM_CUDA_CHECK(cudaMemset(data.data(), 0, data.size()));
    for (const StrideCase& c : cases) {
        if (c.element_bytes != 4 && c.element_bytes != 16) throw UsageError("stride kernels: element must be 4 or 16 bytes");
        if (c.stride == 0) throw UsageError("stride kernels: stride must be at least 1");
        const std::uint64_t n = elements_of(bytes, c.element_bytes);
        counter.zero(nullptr);
        launch_strided(nullptr, data.data(), n, c.stride, c.element_bytes, facts.sm_count * kStrideBlocksPerSm,
                       kStrideThreads, counter.get());
        HWCOMM_CUDA_CHECK(cudaDeviceSynchronize());
        if (const unsigned long long read = counter.read(); read != n)
            throw MeasurementError("stride kernel " + std::to_string(c.element_bytes) + " B x " + std::to_string(c.stride) +
                                   " read " + std::to_string(read) + " elements of " + std::to_string(n));
    }
}

}  // namespace hwcomm::cuda::gpumem
