#include "platform/dmi_memory.hpp"

#include <cerrno>
#include <fstream>
#include <iterator>

#include "core/error.hpp"

namespace hwcomm {

namespace {

constexpr unsigned char kMemoryDevice = 17, kEndOfTable = 127;

unsigned word_at(const std::string& t, std::size_t at) {
    return static_cast<unsigned char>(t[at]) | static_cast<unsigned>(static_cast<unsigned char>(t[at + 1])) << 8;
}
std::uint32_t dword_at(const std::string& t, std::size_t at) { return word_at(t, at) | word_at(t, at + 2) << 16; }

const char* type_name(unsigned code) {
    switch (code) {
    case 0x12: return "DDR";
    case 0x13: return "DDR2";
    case 0x18: return "DDR3";
    case 0x1A: return "DDR4";
    case 0x1B: return "LPDDR";
    case 0x1C: return "LPDDR2";
    case 0x1D: return "LPDDR3";
    case 0x1E: return "LPDDR4";
    case 0x20: return "HBM";
    case 0x21: return "HBM2";
    case 0x22: return "DDR5";
    case 0x23: return "LPDDR5";
    case 0x24: return "HBM3";
    default: return "";
    }
}

// String number n (1-based) of the structure whose strings start at `at`.
std::string string_of(const std::string& t, std::size_t at, unsigned n) {
    if (n == 0) return {};
    for (unsigned i = 1; at < t.size(); ++i) {
        const std::size_t end = t.find('\0', at);
        if (end == std::string::npos) return {};
        if (i == n) return t.substr(at, end - at);
        if (end == at) return {};  // the double NUL: fewer strings than n
        at = end + 1;
    }
    return {};
}

std::uint64_t size_of(const std::string& t, std::size_t at, unsigned length) {
    const unsigned size = word_at(t, at + 0x0C);
    if (size == 0 || size == 0xFFFF) return 0;
    if (size == 0x7FFF && length >= 0x20) return std::uint64_t{dword_at(t, at + 0x1C) & 0x7FFFFFFFu} << 20;
    const std::uint64_t units = size & 0x7FFF;
    return (size & 0x8000) ? units << 10 : units << 20;  // bit 15: KiB, else MiB
}

}  // namespace

DramFacts parse_smbios_memory(const std::string& t) {
    DramFacts facts;
    facts.source = "SMBIOS type 17";
    std::size_t at = 0;
    while (at + 4 <= t.size()) {
        const auto type = static_cast<unsigned char>(t[at]);
        const unsigned length = static_cast<unsigned char>(t[at + 1]);
        if (length < 4 || at + length > t.size()) break;  // malformed: stop, keep what was read
        const std::size_t strings = at + length;
        if (type == kMemoryDevice && length >= 0x17) {
            MemoryDevice d;
            d.size_bytes = size_of(t, at, length);
            d.data_width_bits = word_at(t, at + 0x0A);
            if (d.data_width_bits == 0xFFFF) d.data_width_bits = 0;
            unsigned speed = word_at(t, at + 0x15);
            if (length >= 0x22 && word_at(t, at + 0x20) != 0) speed = word_at(t, at + 0x20);  // configured speed
            if (length >= 0x5C && speed == 0xFFFF) speed = dword_at(t, at + 0x58);             // extended configured
            d.speed_mts = speed == 0xFFFF ? 0 : speed;
            d.type = type_name(static_cast<unsigned char>(t[at + 0x12]));
            d.locator = string_of(t, strings, static_cast<unsigned char>(t[at + 0x10]));
            if (d.size_bytes > 0) facts.devices.push_back(d);
        }
        // Strings end with a double NUL (two NULs also when there are none).
        std::size_t end = t.find(std::string("\0\0", 2), strings);
        if (end == std::string::npos) break;
        at = end + 2;
        if (type == kEndOfTable) break;
    }
    double bytes_per_s = 0;
    bool all_stated = !facts.devices.empty();
    for (const MemoryDevice& d : facts.devices) {
        if (d.speed_mts == 0 || d.data_width_bits == 0) all_stated = false;
        bytes_per_s += static_cast<double>(d.data_width_bits) / 8.0 * d.speed_mts * 1e6;
    }
    if (facts.devices.empty()) facts.note = "the firmware lists no populated memory device";
    else if (!all_stated) facts.note = "a memory device states no speed or data width";
    else {
        facts.theoretical_gbps = bytes_per_s / 1e9;
        facts.note = std::to_string(facts.devices.size()) +
                     " populated devices, data width x configured speed summed: one device per channel assumed";
    }
    return facts;
}

DramFacts read_dram_facts(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        DramFacts none;
        none.source = path;
        none.note = std::string("no SMBIOS table readable at ") + path + " (" + errno_text() +
                    "; root and a firmware that provides it are needed)";
        return none;
    }
    const std::string table((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    DramFacts facts = parse_smbios_memory(table);
    facts.source = "SMBIOS type 17 (" + path + ")";
    return facts;
}

nlohmann::json dram_facts_to_json(const DramFacts& f) {
    nlohmann::json devices = nlohmann::json::array();
    for (const MemoryDevice& d : f.devices)
        devices.push_back({{"locator", d.locator}, {"size_bytes", d.size_bytes}, {"data_width_bits", d.data_width_bits},
                           {"speed_mts", d.speed_mts}, {"type", d.type}});
    return {{"theoretical_gbps", f.theoretical_gbps ? nlohmann::json(*f.theoretical_gbps) : nlohmann::json(nullptr)},
            {"source", f.source}, {"note", f.note}, {"devices", devices}};
}

}  // namespace hwcomm
