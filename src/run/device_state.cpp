#include "run/device_state.hpp"

#include <string>

namespace hwcomm {

DeviceStateProbe::DeviceStateProbe() {
    std::string why_not;
    nvml_ = nvml::open_live_nvml(&why_not);
}

DeviceStateProbe::DeviceStateProbe(std::unique_ptr<nvml::NvmlSource> source) : nvml_(std::move(source)) {}

nlohmann::json DeviceStateProbe::snapshot(const Vertex& gpu) const {
    if (!nvml_ || gpu.kind != VertexKind::Gpu) return nullptr;
    const unsigned count = nvml_->device_count();
    for (unsigned i = 0; i < count; ++i) {
        const bool by_index = gpu.gpu && gpu.gpu->nvml_index == static_cast<int>(i);
        if (!by_index && !gpu.pci) continue;
        const nvml::DeviceInfo d = nvml_->device(i);
        if (!by_index) {
            const auto address = PciAddress::parse(d.pci_bus_id);
            if (!address || !address->same_device(*gpu.pci)) continue;
        }
        return {{"nvml_index", i},
                {"sm_clock_mhz", d.clock_sm_mhz},
                {"memory_clock_mhz", d.clock_memory_mhz},
                {"pcie_generation", d.pcie_generation},
                {"pcie_width", d.pcie_width}};
    }
    return nullptr;
}

}  // namespace hwcomm
