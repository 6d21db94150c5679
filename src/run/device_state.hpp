#pragma once
// Current clocks and PCIe link state of a GPU, read from NVML when a record
// starts and ends, so every record says what state the hardware was in while
// it was measured (a GPU that dropped to Gen1 or idled at 345 MHz is visible).
#include <memory>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "discover/nvml_api.hpp"

namespace hwcomm {

class DeviceStateProbe {
public:
    // Opens live NVML; without it every snapshot is null.
    DeviceStateProbe();
    // For tests: answers from any NVML source (a replayed recording).
    explicit DeviceStateProbe(std::unique_ptr<nvml::NvmlSource> source);
    // {"sm_clock_mhz", "memory_clock_mhz", "pcie_generation", "pcie_width"} of
    // a GPU vertex (matched by NVML index, else by PCI address); null when the
    // vertex is no GPU NVML knows.
    nlohmann::json snapshot(const Vertex& gpu) const;

private:
    std::unique_ptr<nvml::NvmlSource> nvml_;
};

}  // namespace hwcomm
