#pragma once
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hwcomm {

// A PCI function address. Sources disagree on the textual form (NVML writes an
// 8-digit domain, hwloc and sysfs 4 digits), so identity is numeric.
struct PciAddress {
    std::uint32_t domain = 0;
    std::uint8_t bus = 0;
    std::uint8_t device = 0;
    std::uint8_t function = 0;

    // Accepts "DDDD:BB:DD.F", "DDDDDDDD:BB:DD.F" and "BB:DD.F" (domain 0); case-insensitive.
    static std::optional<PciAddress> parse(std::string_view text);
    // Canonical form: 4-digit domain, lower case ("0000:00:06.0").
    std::string to_string() const;
    // Same (domain, bus, device): the match rule used across discovery sources.
    bool same_device(const PciAddress& other) const {
        return domain == other.domain && bus == other.bus && device == other.device;
    }
    // NVML's remote address for links whose far end is hidden (NVSwitch inside a VM).
    bool is_unknown_sentinel() const { return domain == 0xffffffffu && bus == 0xff && device == 0xff; }
    auto operator<=>(const PciAddress&) const = default;
};

}  // namespace hwcomm
