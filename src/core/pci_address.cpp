#include "core/pci_address.hpp"

#include <cstdio>

namespace hwcomm {

std::optional<PciAddress> PciAddress::parse(std::string_view text) {
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    std::string s(text);
    int consumed = 0;
    PciAddress out;
    if (std::sscanf(s.c_str(), "%x:%x:%x.%x%n", &domain, &bus, &device, &function, &consumed) == 4 &&
        consumed == static_cast<int>(s.size())) {
        // ok
    } else if (std::sscanf(s.c_str(), "%x:%x.%x%n", &bus, &device, &function, &consumed) == 3 &&
               consumed == static_cast<int>(s.size())) {
        domain = 0;
    } else {
        return std::nullopt;
    }
    // Device numbers above 0x1f are not valid PCI, but NVML's "unknown remote"
    // sentinel FFFFFFFF:FF:FF.0 uses one; keep it parseable so callers can test it.
    if (bus > 0xff || device > 0xff || function > 7) return std::nullopt;
    out.domain = domain;
    out.bus = static_cast<std::uint8_t>(bus);
    out.device = static_cast<std::uint8_t>(device);
    out.function = static_cast<std::uint8_t>(function);
    return out;
}

std::string PciAddress::to_string() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", domain, bus, device, function);
    return buf;
}

}  // namespace hwcomm
