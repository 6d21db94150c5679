#pragma once
// The memory devices the firmware states (SMBIOS type 17, read from
// /sys/firmware/dmi/tables/DMI, root only) and the theoretical DRAM bandwidth
// they imply: every populated device's data width x configured speed, summed,
// assuming one device per channel (two per channel share one). None when the
// table is unreadable or states no speed (virtual machines), and the reason.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

struct MemoryDevice {
    std::string locator;          // "DIMM_A1"
    std::uint64_t size_bytes = 0;
    unsigned data_width_bits = 0;
    unsigned speed_mts = 0;       // the configured speed when stated, else the rated one
    std::string type;             // "DDR4", "DDR5", ... ("" when another code)
};

struct DramFacts {
    std::vector<MemoryDevice> devices;         // populated devices only
    std::optional<double> theoretical_gbps;    // GB/s = 1e9 B/s
    std::string source;                        // "SMBIOS type 17 (/sys/firmware/dmi/tables/DMI)"
    std::string note;                          // why none, or the assumption
};

// Parses a raw SMBIOS structure table (the DMI file's bytes).
DramFacts parse_smbios_memory(const std::string& table);
// This machine's, from `path` (the sysfs DMI table by default).
DramFacts read_dram_facts(const std::string& path = "/sys/firmware/dmi/tables/DMI");
nlohmann::json dram_facts_to_json(const DramFacts& facts);

}  // namespace hwcomm
