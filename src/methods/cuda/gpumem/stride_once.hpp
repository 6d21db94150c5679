#pragma once
// The kernels of gpumem-stride, each launched once, untimed: what
// `hwcomm gpumem --ncu` runs under Nsight Compute, so the profiler replays a
// few kernels instead of every warm-up and sample of the method.
#include <cstdint>
#include <vector>

namespace hwcomm::cuda::gpumem {

struct StrideCase {
    int element_bytes = 4;
    std::uint64_t stride = 1;
};

// Launches a[(stride x i) % n] over `bytes` of GPU `ordinal`'s memory for each
// case in order, with gpumem-stride's grid, and checks each read every
// element (MeasurementError otherwise).
void launch_each_stride_once(int ordinal, std::uint64_t bytes, const std::vector<StrideCase>& cases);

}  // namespace hwcomm::cuda::gpumem
