#pragma once
// Merges NVML's answers into the graph: GPU facts (UUID, NVML index, memory,
// CPU/NUMA affinity, clocks), PCIe state of the GPU's link, NVLink bonds and
// P2P status. GPUs are matched by numeric (domain, bus, device).
#include "core/graph.hpp"
#include "discover/nvml_api.hpp"

namespace hwcomm {

inline constexpr const char* kFabricId = "nvswitch-fabric";

// Returns how many NVML devices were merged.
int merge_nvml(Graph& graph, const nvml::NvmlSource& source);

}  // namespace hwcomm
