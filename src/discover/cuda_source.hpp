#pragma once
// CUDA runtime facts (built only with CUDA; this header has no CUDA types):
// ordinal -> PCI bus id, SM count, compute capability, memory, peer access and
// the P2P performance rank. The runtime numbers devices in CUDA_DEVICE_ORDER
// (FASTEST_FIRST by default); nvidia-smi and NVML use PCI order.
#include "core/graph.hpp"

namespace hwcomm {

// Returns how many CUDA devices were merged; 0 with a graph note when the
// runtime has no device or fails.
int merge_cuda(Graph& graph);

}  // namespace hwcomm
