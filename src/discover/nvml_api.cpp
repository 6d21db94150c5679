// NVML recordings: record_nvml() writes every answer hwcomm uses; ReplayNvml
// answers from such a document.
#include "discover/nvml_api.hpp"
#include "hwcomm_revision.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"
#include "core/json_parse.hpp"

namespace hwcomm::nvml {

using nlohmann::json;

const char* to_string(P2pCapability cap) {
    switch (cap) {
        case P2pCapability::Read: return "read";
        case P2pCapability::Write: return "write";
        case P2pCapability::NvLink: return "nvlink";
        case P2pCapability::Atomics: return "atomics";
        case P2pCapability::Prop: return "prop";
    }
    return "unknown";
}

std::string p2p_status_text(int status) {
    switch (status) {
        case 0: return "OK";
        case 1: return "CNS";
        case 2: return "GNS";
        case 3: return "TNS";
        case 4: return "DRK";
        case 5: return "NS";
        default: return "U";
    }
}

namespace {

json masks_to_json(const std::vector<std::uint64_t>& words) {
    json out = json::array();
    for (auto w : words) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(w));
        out.push_back(buf);
    }
    return out;
}

std::vector<std::uint64_t> masks_from_json(const json& j) {
    std::vector<std::uint64_t> out;
    if (!j.is_array()) return out;
    for (const auto& w : j) out.push_back(std::strtoull(w.get<std::string>().c_str(), nullptr, 16));
    return out;
}

// -1 (unknown) is written as null.
json opt(int v) { return v < 0 ? json(nullptr) : json(v); }
int opt_from(const json& j, const char* key) {
    return j.contains(key) && j.at(key).is_number_integer() ? j.at(key).get<int>() : -1;
}

json device_to_json(unsigned index, const DeviceInfo& d) {
    json links = json::array();
    for (const auto& l : d.nvlinks)
        links.push_back({{"link", l.link}, {"active", l.active}, {"version", l.version},
                         {"remote_pci_bus_id", l.remote_pci_bus_id}, {"remote_device_type", opt(l.remote_device_type)}});
    return {{"index", index},
            {"name", d.name},
            {"uuid", d.uuid},
            {"pci_bus_id", d.pci_bus_id},
            {"memory_total_bytes", d.memory_total_bytes},
            {"pcie", {{"current_generation", opt(d.pcie_generation)}, {"current_width", opt(d.pcie_width)},
                      {"max_generation", opt(d.pcie_max_generation)}, {"max_width", opt(d.pcie_max_width)}}},
            {"cpu_affinity", masks_to_json(d.cpu_affinity)},
            {"memory_affinity", d.memory_affinity.empty() ? json(nullptr) : masks_to_json(d.memory_affinity)},
            {"numa_node", opt(d.numa_node)},
            {"clocks_mhz", {{"sm", opt(d.clock_sm_mhz)}, {"memory", opt(d.clock_memory_mhz)},
                            {"max_sm", opt(d.max_clock_sm_mhz)}, {"max_memory", opt(d.max_clock_memory_mhz)}}},
            {"nvlinks", links}};
}

DeviceInfo device_from_json(const json& j) {
    DeviceInfo d;
    d.name = j.value("name", "");
    d.uuid = j.value("uuid", "");
    d.pci_bus_id = j.at("pci_bus_id").get<std::string>();
    d.memory_total_bytes = j.value("memory_total_bytes", std::uint64_t{0});
    if (j.contains("pcie")) {
        const auto& p = j.at("pcie");
        d.pcie_generation = opt_from(p, "current_generation");
        d.pcie_width = opt_from(p, "current_width");
        d.pcie_max_generation = opt_from(p, "max_generation");
        d.pcie_max_width = opt_from(p, "max_width");
    }
    if (j.contains("cpu_affinity")) d.cpu_affinity = masks_from_json(j.at("cpu_affinity"));
    if (j.contains("memory_affinity")) d.memory_affinity = masks_from_json(j.at("memory_affinity"));
    d.numa_node = opt_from(j, "numa_node");
    if (j.contains("clocks_mhz")) {
        const auto& c = j.at("clocks_mhz");
        d.clock_sm_mhz = opt_from(c, "sm");
        d.clock_memory_mhz = opt_from(c, "memory");
        d.max_clock_sm_mhz = opt_from(c, "max_sm");
        d.max_clock_memory_mhz = opt_from(c, "max_memory");
    }
    for (const auto& l : j.value("nvlinks", json::array())) {
        NvLinkInfo link;
        link.link = l.at("link").get<unsigned>();
        link.active = l.value("active", false);
        link.version = l.value("version", 0);
        link.remote_pci_bus_id = l.value("remote_pci_bus_id", "");
        link.remote_device_type = opt_from(l, "remote_device_type");
        d.nvlinks.push_back(link);
    }
    return d;
}

class ReplayNvml final : public NvmlSource {
public:
    ReplayNvml(const json& doc, std::string origin) : origin_(std::move(origin)) {
        versions_.driver = doc.value("driver_version", "");
        versions_.nvml = doc.value("nvml_version", "");
        versions_.cuda_driver = doc.value("cuda_driver_version", 0);
        for (const auto& d : doc.at("devices")) devices_.push_back(device_from_json(d));
        for (const auto& p : doc.value("p2p", json::array())) {
            const unsigned a = p.at("a").get<unsigned>(), b = p.at("b").get<unsigned>();
            Pair pair;
            for (int c = 0; c < kP2pCapabilityCount; ++c)
                pair.status[c] = opt_from(p, to_string(static_cast<P2pCapability>(c)));
            pair.common_ancestor = opt_from(p, "common_ancestor");
            pairs_[{a, b}] = pair;
        }
    }
    Versions versions() const override { return versions_; }
    unsigned device_count() const override { return static_cast<unsigned>(devices_.size()); }
    DeviceInfo device(unsigned index) const override { return devices_.at(index); }
    int p2p_status(unsigned a, unsigned b, P2pCapability cap) const override {
        auto it = pairs_.find({a, b});
        return it == pairs_.end() ? -1 : it->second.status[static_cast<int>(cap)];
    }
    int common_ancestor(unsigned a, unsigned b) const override {
        auto it = pairs_.find({a, b});
        return it == pairs_.end() ? -1 : it->second.common_ancestor;
    }
    std::string origin() const override { return origin_; }

private:
    struct Pair {
        int status[kP2pCapabilityCount] = {-1, -1, -1, -1, -1};
        int common_ancestor = -1;
    };
    std::string origin_;
    Versions versions_;
    std::vector<DeviceInfo> devices_;
    std::map<std::pair<unsigned, unsigned>, Pair> pairs_;
};

}  // namespace

json record_nvml(const NvmlSource& source) {
    const Versions v = source.versions();
    json doc{{"format", kRecordingFormat}, {"format_version", kRecordingVersion},
             {"recorded_by", std::string("hwcomm ") + HWCOMM_VERSION + " (" + HWCOMM_GIT_REVISION + ") topo --record-nvml"},
             {"driver_version", v.driver}, {"nvml_version", v.nvml}, {"cuda_driver_version", v.cuda_driver}};
    doc["devices"] = json::array();
    const unsigned n = source.device_count();
    for (unsigned i = 0; i < n; ++i) doc["devices"].push_back(device_to_json(i, source.device(i)));
    doc["p2p"] = json::array();
    for (unsigned a = 0; a < n; ++a) {
        for (unsigned b = 0; b < n; ++b) {
            if (a == b) continue;
            json pair{{"a", a}, {"b", b}};
            for (int c = 0; c < kP2pCapabilityCount; ++c) {
                const auto cap = static_cast<P2pCapability>(c);
                pair[to_string(cap)] = opt(source.p2p_status(a, b, cap));
            }
            pair["common_ancestor"] = opt(source.common_ancestor(a, b));
            doc["p2p"].push_back(pair);
        }
    }
    return doc;
}

std::unique_ptr<NvmlSource> nvml_replay_from_json(const json& doc, const std::string& name) {
    if (!doc.is_object() || doc.value("format", json()) != kRecordingFormat)
        throw UsageError(name + " is not an hwcomm NVML recording");
    if (doc.value("format_version", json()) != kRecordingVersion)
        throw UsageError(name + ": unsupported NVML recording version " + doc.value("format_version", json()).dump());
    try {
        return std::make_unique<ReplayNvml>(doc, "replay:" + name);
    } catch (const json::exception& e) {
        throw UsageError(name + " is a malformed NVML recording: " + json_error_text(e));
    }
}

std::unique_ptr<NvmlSource> open_nvml_replay(const std::string& path) {
    // The guarded input path: a pipe, device or oversized file is refused, not waited on.
    return nvml_replay_from_json(parse_json_file(path, "NVML recording"), path);
}

}  // namespace hwcomm::nvml
