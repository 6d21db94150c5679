#pragma once
// A small interface of ours over the NVML answers hwcomm uses. LiveNvml loads
// libnvidia-ml.so.1 at run time (no NVML at build time); ReplayNvml answers
// from a recording that record_nvml() wrote on a GPU machine, so tests and
// machines without a GPU see exactly what the driver said.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm::nvml {

// NVML's nvmlIntNvLinkDeviceType_t values.
inline constexpr int kRemoteGpu = 0;
inline constexpr int kRemoteIbmNpu = 1;
inline constexpr int kRemoteSwitch = 2;
inline constexpr int kRemoteUnknown = 255;

struct NvLinkInfo {
    unsigned link = 0;
    bool active = false;
    int version = 0;                  // nvmlNvLinkVersion enum (6 = NVLink 4.0), 0 unknown
    std::string remote_pci_bus_id;    // as NVML writes it ("FFFFFFFF:FF:FF.0" when hidden)
    int remote_device_type = -1;      // kRemote*, -1 when NVML did not say
};

struct DeviceInfo {
    std::string name;
    std::string uuid;
    std::string pci_bus_id;           // "00000000:00:06.0"
    std::uint64_t memory_total_bytes = 0;
    int pcie_generation = -1, pcie_width = -1, pcie_max_generation = -1, pcie_max_width = -1;
    std::vector<std::uint64_t> cpu_affinity;     // 64-bit words, bit b of word w = CPU 64w+b
    std::vector<std::uint64_t> memory_affinity;  // NUMA node mask, empty when not supported
    int numa_node = -1;               // nvmlDeviceGetNumaNodeId: the GPU's own NUMA node (C2C), -1 none
    int clock_sm_mhz = -1, clock_memory_mhz = -1, max_clock_sm_mhz = -1, max_clock_memory_mhz = -1;
    std::vector<NvLinkInfo> nvlinks;  // every link NVML answered for
};

// nvmlGpuP2PCapsIndex_t
enum class P2pCapability { Read = 0, Write = 1, NvLink = 2, Atomics = 3, Prop = 4 };
inline constexpr int kP2pCapabilityCount = 5;
const char* to_string(P2pCapability cap);
// nvmlGpuP2PStatus_t -> nvidia-smi's letters: 0 "OK", 1 "CNS", 2 "GNS", 3 "TNS", 4 "DRK", 5 "NS", else "U".
std::string p2p_status_text(int status);

struct Versions {
    std::string driver;               // "580.159.04"
    std::string nvml;                 // "13.580.159.04"
    int cuda_driver = 0;              // 13000
};

class NvmlSource {
public:
    virtual ~NvmlSource() = default;
    virtual Versions versions() const = 0;
    virtual unsigned device_count() const = 0;
    virtual DeviceInfo device(unsigned index) const = 0;
    // nvmlGpuP2PStatus_t value, -1 when not answered.
    virtual int p2p_status(unsigned a, unsigned b, P2pCapability cap) const = 0;
    // nvmlGpuTopologyLevel_t (30 = same host bridge), -1 when not answered.
    virtual int common_ancestor(unsigned a, unsigned b) const = 0;
    // Where the answers come from: "live" or "replay:FILE".
    virtual std::string origin() const = 0;
};

// nullptr when there is no NVML (library missing, no driver, init failed);
// *why_not says why.
std::unique_ptr<NvmlSource> open_live_nvml(std::string* why_not);

// Throws UsageError naming the file when it is missing or not a recording.
std::unique_ptr<NvmlSource> open_nvml_replay(const std::string& path);
// name: the file (or label) errors and origin() mention.
std::unique_ptr<NvmlSource> nvml_replay_from_json(const nlohmann::json& doc, const std::string& name);

inline constexpr const char* kRecordingFormat = "hwcomm-nvml-recording";
inline constexpr int kRecordingVersion = 1;
nlohmann::json record_nvml(const NvmlSource& source);

}  // namespace hwcomm::nvml
