#pragma once
// Facts recorded with every CUDA record: driver and runtime versions, and per
// GPU its name, PCI bus id, clocks (peak, from CUDA attributes), SM and copy
// engine counts, memory, plus the PCIe link state discovery put in the graph.
#include <cstddef>

#include <cuda_runtime_api.h>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"

namespace hwcomm::cuda {

nlohmann::json runtime_facts();
nlohmann::json device_facts(int ordinal);
// device_facts plus {"vertex": id, "pcie": {...}} from the graph.
nlohmann::json gpu_context(const Graph& graph, const Vertex& gpu);

int sm_count_of(int ordinal);
// cudaDeviceGetAttribute, checked (an int attribute such as cudaDevAttrMultiProcessorCount).
int device_attribute(cudaDeviceAttr attr, int ordinal);
struct DeviceMemInfo {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
};
DeviceMemInfo device_memory(int ordinal);

}  // namespace hwcomm::cuda
