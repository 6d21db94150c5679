#pragma once
// TEST ONLY: the kernel of fault-kernel (fault_methods.hpp). Stores `value`
// into dst[0..bytes); given an unmapped `dst` it faults with
// cudaErrorIllegalAddress, reported by the next synchronization.
#include <cstddef>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

void launch_store_kernel(cudaStream_t stream, std::byte* dst, std::size_t bytes, unsigned char value);

}  // namespace hwcomm::cuda
