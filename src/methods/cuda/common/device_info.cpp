#include "methods/cuda/common/device_info.hpp"

#include <array>
#include <string>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/graph_queries.hpp"

namespace hwcomm::cuda {

int device_attribute(cudaDeviceAttr attr, int ordinal) {
    int value = 0;
    HWCOMM_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, ordinal));
    return value;
}

namespace {

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

}  // namespace

nlohmann::json runtime_facts() {
    int driver = 0, runtime = 0;
    HWCOMM_CUDA_CHECK(cudaDriverGetVersion(&driver));
    HWCOMM_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    return {{"cuda_driver_version", version_text(driver)}, {"cuda_runtime_version", version_text(runtime)},
            {"cuda_driver_version_raw", driver}, {"cuda_runtime_version_raw", runtime}};
}

nlohmann::json device_facts(int ordinal) {
    cudaDeviceProp prop{};
    HWCOMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
    std::array<char, 32> bus{};
    HWCOMM_CUDA_CHECK(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), ordinal));
    const DeviceMemInfo mem = device_memory(ordinal);
    return {{"cuda_ordinal", ordinal},
            {"name", std::string(prop.name)},
            {"pci_bus_id", std::string(bus.data())},
            {"sm_clock_peak_khz", device_attribute(cudaDevAttrClockRate, ordinal)},
            {"memory_clock_peak_khz", device_attribute(cudaDevAttrMemoryClockRate, ordinal)},
            {"sm_count", device_attribute(cudaDevAttrMultiProcessorCount, ordinal)},
            {"async_engine_count", device_attribute(cudaDevAttrAsyncEngineCount, ordinal)},
            {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
            {"memory_total_bytes", mem.total_bytes},
            {"memory_free_bytes_at_prepare", mem.free_bytes}};
}

nlohmann::json gpu_context(const Graph& graph, const Vertex& gpu) {
    nlohmann::json j = device_facts(cuda_ordinal(gpu));
    j["vertex"] = gpu.id;
    if (const auto link = gpu_pcie_link(graph, gpu))
        j["pcie"] = {{"generation", link->generation},
                     {"width", link->width},
                     {"max_generation", link->max_generation},
                     {"max_width", link->max_width},
                     {"source", "graph (discovery at run start)"}};
    else
        j["pcie"] = nullptr;
    return j;
}

int sm_count_of(int ordinal) { return device_attribute(cudaDevAttrMultiProcessorCount, ordinal); }

DeviceMemInfo device_memory(int ordinal) {
    ScopedDevice on(ordinal);
    DeviceMemInfo info;
    HWCOMM_CUDA_CHECK(cudaMemGetInfo(&info.free_bytes, &info.total_bytes));
    return info;
}

}  // namespace hwcomm::cuda
