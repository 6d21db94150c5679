// LiveNvml: the driver's NVML, loaded with dlopen so that hwcomm builds and runs
// without it. We declare the few NVML types and entry points we use ourselves;
// their layout is NVML's stable ABI (nvml.h, _v2/_v3 entry points).
#include <dlfcn.h>

#include <array>
#include <memory>
#include <string>

#include "discover/nvml_api.hpp"

namespace hwcomm::nvml {

namespace {

using nvmlReturn_t = int;
constexpr nvmlReturn_t kSuccess = 0;
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;

struct nvmlPciInfo_t {                // nvmlPciInfo_st, as filled by the _v3 / _v2 entry points
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];                   // "00000000:00:06.0"
};

struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

constexpr unsigned kMaxNvLinks = 18;      // NVML_NVLINK_MAX_LINKS
constexpr unsigned kAffinityWords = 16;   // 1024 CPUs / NUMA nodes
constexpr int kClockSm = 1, kClockMem = 2; // nvmlClockType_t
constexpr int kAffinityScopeNode = 0;      // NVML_AFFINITY_SCOPE_NODE

struct LibraryCloser {
    void operator()(void* handle) const noexcept { dlclose(handle); }
};
using Library = std::unique_ptr<void, LibraryCloser>;

template <typename Fn>
Fn symbol(void* lib, const char* name) {
    return reinterpret_cast<Fn>(dlsym(lib, name));
}

struct Api {
    nvmlReturn_t (*init)();
    nvmlReturn_t (*shutdown)();
    const char* (*error_string)(nvmlReturn_t);
    nvmlReturn_t (*device_count)(unsigned*);
    nvmlReturn_t (*handle_by_index)(unsigned, nvmlDevice_t*);
    nvmlReturn_t (*pci_info)(nvmlDevice_t, nvmlPciInfo_t*);
    // Optional ones: nullptr when this driver lacks them.
    nvmlReturn_t (*driver_version)(char*, unsigned);
    nvmlReturn_t (*nvml_version)(char*, unsigned);
    nvmlReturn_t (*cuda_driver_version)(int*);
    nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned);
    nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned);
    nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*);
    nvmlReturn_t (*pcie_gen)(nvmlDevice_t, unsigned*);
    nvmlReturn_t (*pcie_width)(nvmlDevice_t, unsigned*);
    nvmlReturn_t (*pcie_max_gen)(nvmlDevice_t, unsigned*);
    nvmlReturn_t (*pcie_max_width)(nvmlDevice_t, unsigned*);
    nvmlReturn_t (*cpu_affinity)(nvmlDevice_t, unsigned, unsigned long*);
    nvmlReturn_t (*memory_affinity)(nvmlDevice_t, unsigned, unsigned long*, int);
    nvmlReturn_t (*numa_node)(nvmlDevice_t, unsigned*);
    nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned*);
    nvmlReturn_t (*max_clock)(nvmlDevice_t, int, unsigned*);
    nvmlReturn_t (*nvlink_state)(nvmlDevice_t, unsigned, int*);
    nvmlReturn_t (*nvlink_version)(nvmlDevice_t, unsigned, unsigned*);
    nvmlReturn_t (*nvlink_remote_pci)(nvmlDevice_t, unsigned, nvmlPciInfo_t*);
    nvmlReturn_t (*nvlink_remote_type)(nvmlDevice_t, unsigned, int*);
    nvmlReturn_t (*p2p_status)(nvmlDevice_t, nvmlDevice_t, int, int*);
    nvmlReturn_t (*common_ancestor)(nvmlDevice_t, nvmlDevice_t, int*);
};

Api load_api(void* lib) {
    Api a{};
    a.init = symbol<decltype(a.init)>(lib, "nvmlInit_v2");
    a.shutdown = symbol<decltype(a.shutdown)>(lib, "nvmlShutdown");
    a.error_string = symbol<decltype(a.error_string)>(lib, "nvmlErrorString");
    a.device_count = symbol<decltype(a.device_count)>(lib, "nvmlDeviceGetCount_v2");
    a.handle_by_index = symbol<decltype(a.handle_by_index)>(lib, "nvmlDeviceGetHandleByIndex_v2");
    a.pci_info = symbol<decltype(a.pci_info)>(lib, "nvmlDeviceGetPciInfo_v3");
    a.driver_version = symbol<decltype(a.driver_version)>(lib, "nvmlSystemGetDriverVersion");
    a.nvml_version = symbol<decltype(a.nvml_version)>(lib, "nvmlSystemGetNVMLVersion");
    a.cuda_driver_version = symbol<decltype(a.cuda_driver_version)>(lib, "nvmlSystemGetCudaDriverVersion_v2");
    a.name = symbol<decltype(a.name)>(lib, "nvmlDeviceGetName");
    a.uuid = symbol<decltype(a.uuid)>(lib, "nvmlDeviceGetUUID");
    a.memory = symbol<decltype(a.memory)>(lib, "nvmlDeviceGetMemoryInfo");
    a.pcie_gen = symbol<decltype(a.pcie_gen)>(lib, "nvmlDeviceGetCurrPcieLinkGeneration");
    a.pcie_width = symbol<decltype(a.pcie_width)>(lib, "nvmlDeviceGetCurrPcieLinkWidth");
    a.pcie_max_gen = symbol<decltype(a.pcie_max_gen)>(lib, "nvmlDeviceGetMaxPcieLinkGeneration");
    a.pcie_max_width = symbol<decltype(a.pcie_max_width)>(lib, "nvmlDeviceGetMaxPcieLinkWidth");
    a.cpu_affinity = symbol<decltype(a.cpu_affinity)>(lib, "nvmlDeviceGetCpuAffinity");
    a.memory_affinity = symbol<decltype(a.memory_affinity)>(lib, "nvmlDeviceGetMemoryAffinity");
    a.numa_node = symbol<decltype(a.numa_node)>(lib, "nvmlDeviceGetNumaNodeId");
    a.clock = symbol<decltype(a.clock)>(lib, "nvmlDeviceGetClockInfo");
    a.max_clock = symbol<decltype(a.max_clock)>(lib, "nvmlDeviceGetMaxClockInfo");
    a.nvlink_state = symbol<decltype(a.nvlink_state)>(lib, "nvmlDeviceGetNvLinkState");
    a.nvlink_version = symbol<decltype(a.nvlink_version)>(lib, "nvmlDeviceGetNvLinkVersion");
    a.nvlink_remote_pci = symbol<decltype(a.nvlink_remote_pci)>(lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    a.nvlink_remote_type = symbol<decltype(a.nvlink_remote_type)>(lib, "nvmlDeviceGetNvLinkRemoteDeviceType");
    a.p2p_status = symbol<decltype(a.p2p_status)>(lib, "nvmlDeviceGetP2PStatus");
    a.common_ancestor = symbol<decltype(a.common_ancestor)>(lib, "nvmlDeviceGetTopologyCommonAncestor");
    return a;
}

std::vector<std::uint64_t> trimmed(const std::array<unsigned long, kAffinityWords>& words) {
    std::vector<std::uint64_t> out(words.begin(), words.end());
    while (out.size() > 1 && out.back() == 0) out.pop_back();
    return out;
}

class LiveNvml final : public NvmlSource {
public:
    LiveNvml(Library lib, Api api) : lib_(std::move(lib)), api_(api) {}
    ~LiveNvml() override { api_.shutdown(); }
    LiveNvml(const LiveNvml&) = delete;
    LiveNvml& operator=(const LiveNvml&) = delete;

    Versions versions() const override {
        Versions v;
        char buf[96] = {};
        if (api_.driver_version && api_.driver_version(buf, sizeof buf) == kSuccess) v.driver = buf;
        if (api_.nvml_version && api_.nvml_version(buf, sizeof buf) == kSuccess) v.nvml = buf;
        if (api_.cuda_driver_version) api_.cuda_driver_version(&v.cuda_driver);
        return v;
    }

    unsigned device_count() const override {
        unsigned n = 0;
        return api_.device_count(&n) == kSuccess ? n : 0;
    }

    DeviceInfo device(unsigned index) const override {
        DeviceInfo d;
        nvmlDevice_t dev = handle(index);
        if (!dev) return d;
        char buf[96] = {};
        if (api_.name && api_.name(dev, buf, sizeof buf) == kSuccess) d.name = buf;
        if (api_.uuid && api_.uuid(dev, buf, sizeof buf) == kSuccess) d.uuid = buf;
        nvmlPciInfo_t pci{};
        if (api_.pci_info(dev, &pci) == kSuccess) d.pci_bus_id = pci.busId;
        nvmlMemory_t mem{};
        if (api_.memory && api_.memory(dev, &mem) == kSuccess) d.memory_total_bytes = mem.total;
        d.pcie_generation = ask(api_.pcie_gen, dev);
        d.pcie_width = ask(api_.pcie_width, dev);
        d.pcie_max_generation = ask(api_.pcie_max_gen, dev);
        d.pcie_max_width = ask(api_.pcie_max_width, dev);
        std::array<unsigned long, kAffinityWords> words{};
        if (api_.cpu_affinity && api_.cpu_affinity(dev, kAffinityWords, words.data()) == kSuccess)
            d.cpu_affinity = trimmed(words);
        words.fill(0);
        if (api_.memory_affinity &&
            api_.memory_affinity(dev, kAffinityWords, words.data(), kAffinityScopeNode) == kSuccess)
            d.memory_affinity = trimmed(words);
        d.numa_node = ask(api_.numa_node, dev);
        d.clock_sm_mhz = ask_clock(api_.clock, dev, kClockSm);
        d.clock_memory_mhz = ask_clock(api_.clock, dev, kClockMem);
        d.max_clock_sm_mhz = ask_clock(api_.max_clock, dev, kClockSm);
        d.max_clock_memory_mhz = ask_clock(api_.max_clock, dev, kClockMem);
        for (unsigned link = 0; api_.nvlink_state && link < kMaxNvLinks; ++link) {
            int active = 0;
            if (api_.nvlink_state(dev, link, &active) != kSuccess) continue;  // no such link
            NvLinkInfo l{.link = link, .active = active != 0};
            unsigned version = 0;
            if (api_.nvlink_version && api_.nvlink_version(dev, link, &version) == kSuccess)
                l.version = static_cast<int>(version);
            nvmlPciInfo_t remote{};
            if (api_.nvlink_remote_pci && api_.nvlink_remote_pci(dev, link, &remote) == kSuccess)
                l.remote_pci_bus_id = remote.busId;
            int type = -1;
            if (api_.nvlink_remote_type && api_.nvlink_remote_type(dev, link, &type) == kSuccess)
                l.remote_device_type = type;
            d.nvlinks.push_back(l);
        }
        return d;
    }

    int p2p_status(unsigned a, unsigned b, P2pCapability cap) const override {
        nvmlDevice_t da = handle(a), db = handle(b);
        int status = -1;
        if (!api_.p2p_status || !da || !db ||
            api_.p2p_status(da, db, static_cast<int>(cap), &status) != kSuccess)
            return -1;
        return status;
    }

    int common_ancestor(unsigned a, unsigned b) const override {
        nvmlDevice_t da = handle(a), db = handle(b);
        int level = -1;
        if (!api_.common_ancestor || !da || !db || api_.common_ancestor(da, db, &level) != kSuccess) return -1;
        return level;
    }

    std::string origin() const override { return "live"; }

private:
    Library lib_;
    Api api_;

    nvmlDevice_t handle(unsigned index) const {
        nvmlDevice_t dev = nullptr;
        return api_.handle_by_index(index, &dev) == kSuccess ? dev : nullptr;
    }
    static int ask(nvmlReturn_t (*fn)(nvmlDevice_t, unsigned*), nvmlDevice_t dev) {
        unsigned v = 0;
        return fn && fn(dev, &v) == kSuccess ? static_cast<int>(v) : -1;
    }
    static int ask_clock(nvmlReturn_t (*fn)(nvmlDevice_t, int, unsigned*), nvmlDevice_t dev, int type) {
        unsigned v = 0;
        return fn && fn(dev, type, &v) == kSuccess ? static_cast<int>(v) : -1;
    }
};

}  // namespace

std::unique_ptr<NvmlSource> open_live_nvml(std::string* why_not) {
    auto say = [why_not](const std::string& text) {
        if (why_not) *why_not = text;
        return nullptr;
    };
    Library lib(dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL));
    if (!lib) return say("libnvidia-ml.so.1 not found (no NVIDIA driver)");
    Api api = load_api(lib.get());
    if (!api.init || !api.shutdown || !api.device_count || !api.handle_by_index || !api.pci_info)
        return say("libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetPciInfo_v3 (driver too old)");
    if (const nvmlReturn_t rc = api.init(); rc != kSuccess)
        return say(std::string("nvmlInit_v2 failed: ") + (api.error_string ? api.error_string(rc) : std::to_string(rc)));
    return std::make_unique<LiveNvml>(std::move(lib), api);
}

}  // namespace hwcomm::nvml
