#include "methods/cuda/faults/fault_kernel.hpp"

#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda {

namespace {

__global__ void store_kernel(unsigned char* dst, std::size_t bytes, unsigned char value) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < bytes; i += stride)
        dst[i] = value;
}

}  // namespace

void launch_store_kernel(cudaStream_t stream, std::byte* dst, std::size_t bytes, unsigned char value) {
    store_kernel<<<64, 256, 0, stream>>>(reinterpret_cast<unsigned char*>(dst), bytes, value);
    HWCOMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hwcomm::cuda
