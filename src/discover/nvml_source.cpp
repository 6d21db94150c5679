#include "discover/nvml_source.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/link_rates.hpp"
#include "discover/cpu_list.hpp"

namespace hwcomm {

namespace {

std::string hex2(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02x", v & 0xffu);
    return buf;
}

bool bus_in_range(const std::string& buses, const PciAddress& a) {
    unsigned domain = 0, first = 0, last = 0;
    if (std::sscanf(buses.c_str(), "%x:[%x-%x]", &domain, &first, &last) != 3) return false;
    return domain == a.domain && a.bus >= first && a.bus <= last;
}

// NUMA vertices near a GPU per NVML: its memory affinity, else the NUMA nodes
// whose CPUs intersect its CPU affinity.
std::vector<std::string> numa_near(const Graph& graph, const nvml::DeviceInfo& d) {
    std::vector<std::string> out;
    for (unsigned n : indexes_from_mask(d.memory_affinity))
        if (graph.find("numa" + std::to_string(n))) out.push_back("numa" + std::to_string(n));
    if (!out.empty()) return out;
    const auto cpus = indexes_from_mask(d.cpu_affinity);
    const std::set<unsigned> cpu_set(cpus.begin(), cpus.end());
    for (const Vertex* v : graph.of_kind(VertexKind::NumaNode)) {
        if (!v->numa) continue;
        for (unsigned pu : v->numa->pus)
            if (cpu_set.count(pu)) {
                out.push_back(v->id);
                break;
            }
    }
    return out;
}

// A GPU hwloc did not see (no PCI discovery): hang it under the host bridge
// whose bus range holds it, or under one assumed from its address.
Vertex& add_missing_gpu(Graph& graph, const PciAddress& pci, const nvml::DeviceInfo& d) {
    std::string parent;
    for (const Vertex* hb : graph.of_kind(VertexKind::HostBridge)) {
        auto it = hb->attrs.find("buses");
        if (it != hb->attrs.end() && bus_in_range(it->second, pci)) parent = hb->id;
    }
    if (parent.empty()) {
        char dom[16];
        std::snprintf(dom, sizeof dom, "%04x", pci.domain);
        parent = std::string("pci") + dom + ":" + hex2(pci.bus);
        if (!graph.find(parent)) {
            Vertex hb{.id = parent, .kind = VertexKind::HostBridge, .name = "Host bridge (assumed from NVML)"};
            hb.attrs["assumed"] = "true";
            graph.add_vertex(std::move(hb));
            for (const auto& numa : numa_near(graph, d))
                graph.add_edge({.a = numa, .b = parent, .kind = EdgeKind::Membership, .source = "nvml"});
        }
    }
    Vertex gpu{.id = "pci:" + pci.to_string(), .kind = VertexKind::Gpu, .name = d.name};
    gpu.pci = pci;
    Vertex& added = graph.add_vertex(std::move(gpu));
    graph.add_edge({.a = parent, .b = added.id, .kind = EdgeKind::Pcie, .source = "nvml"});
    return added;
}

void fill_gpu(Graph& graph, Vertex& v, unsigned index, const nvml::DeviceInfo& d) {
    v.kind = VertexKind::Gpu;
    if (!v.gpu) v.gpu = GpuInfo{};
    GpuInfo& g = *v.gpu;
    if (!d.name.empty()) g.model = v.name = d.name;
    if (!d.uuid.empty()) g.uuid = d.uuid;
    g.nvml_index = static_cast<int>(index);
    if (d.memory_total_bytes) g.memory_bytes = d.memory_total_bytes;
    if (!d.cpu_affinity.empty()) g.cpu_affinity = format_index_list(indexes_from_mask(d.cpu_affinity));
    if (!d.memory_affinity.empty()) {
        g.numa_affinity.clear();
        for (unsigned n : indexes_from_mask(d.memory_affinity)) g.numa_affinity.push_back(static_cast<int>(n));
    }
    // Only where the GPU's memory is itself a NUMA node (C2C platforms).
    if (d.numa_node >= 0) v.attrs["gpu_numa_id"] = std::to_string(d.numa_node);
    if (d.clock_sm_mhz >= 0) v.attrs["clock_sm_mhz"] = std::to_string(d.clock_sm_mhz);
    if (d.max_clock_sm_mhz >= 0) v.attrs["max_clock_sm_mhz"] = std::to_string(d.max_clock_sm_mhz);
    if (d.clock_memory_mhz >= 0) v.attrs["clock_memory_mhz"] = std::to_string(d.clock_memory_mhz);
    if (d.max_clock_memory_mhz >= 0) v.attrs["max_clock_memory_mhz"] = std::to_string(d.max_clock_memory_mhz);

    if (d.pcie_generation <= 0 || d.pcie_width <= 0) return;
    for (Edge& e : graph.mutable_edges()) {
        if (e.kind != EdgeKind::Pcie || e.b != v.id) continue;
        e.pcie = PcieLink{d.pcie_generation, d.pcie_width, std::max(d.pcie_max_generation, 0),
                          std::max(d.pcie_max_width, 0)};
        e.gbps_per_direction = pcie_link_gbps(d.pcie_generation, d.pcie_width);
        e.max_gbps_per_direction = pcie_link_gbps(e.pcie->max_generation, e.pcie->max_width);
        e.source += e.source.empty() ? "nvml" : "+nvml";
    }
}

std::string package_near(const Graph& graph, const Vertex& gpu) {
    if (!gpu.gpu) return "";
    for (int n : gpu.gpu->numa_affinity)
        for (const Edge* e : graph.edges_of("numa" + std::to_string(n)))
            if (e->kind == EdgeKind::Membership && graph.find(e->a)->kind == VertexKind::Package) return e->a;
    return "";
}

std::string fabric(Graph& graph, bool hidden) {
    if (!graph.find(kFabricId)) {
        Vertex f{.id = kFabricId, .kind = VertexKind::NvSwitchFabric,
                 .name = hidden ? "NVSwitch fabric (switches hidden from this VM)" : "NVSwitch fabric"};
        graph.add_vertex(std::move(f));
    }
    return kFabricId;
}

// A switch hwloc shows as a PCI function (NVML names its bus id): the vertex
// becomes an NvSwitch and the link ends there. "" when the graph lacks it.
std::string visible_switch(Graph& graph, const PciAddress& address) {
    const Vertex* found = graph.find_by_pci(address);
    if (!found || (found->kind != VertexKind::PciDevice && found->kind != VertexKind::NvSwitch)) return "";
    Vertex& sw = *graph.find(found->id);
    if (sw.kind == VertexKind::PciDevice) sw.name = "NVSwitch (" + sw.name + ")";
    sw.kind = VertexKind::NvSwitch;
    return sw.id;
}

// Where the links of one GPU go: grouped per remote, one bond each.
void add_nvlinks(Graph& graph, const std::string& gpu_id, const nvml::DeviceInfo& d) {
    struct Bond { int links = 0; int version = 0; };
    std::map<std::string, Bond> bonds;
    for (const auto& l : d.nvlinks) {
        if (!l.active) continue;
        auto remote = PciAddress::parse(l.remote_pci_bus_id);
        std::string target;
        const bool hidden = remote && remote->is_unknown_sentinel();
        const bool to_switch = l.remote_device_type == nvml::kRemoteSwitch;
        if (to_switch && remote && !hidden) target = visible_switch(graph, *remote);
        if (!target.empty()) {
            // NVML names a switch the graph shows: the link ends on it.
        } else if (to_switch || hidden) {
            target = fabric(graph, hidden);
            if (remote && !remote->is_unknown_sentinel()) {
                // Visible switches are listed on the fabric: bandwidth spreads over all of them.
                auto& list = graph.find(target)->attrs["switches"];
                if (list.find(remote->to_string()) == std::string::npos)
                    list += (list.empty() ? "" : ",") + remote->to_string();
            }
        } else if (l.remote_device_type == nvml::kRemoteIbmNpu) {
            target = package_near(graph, *graph.find(gpu_id));  // NVLink to the POWER CPU
        } else if (remote) {
            if (const Vertex* peer = graph.find_by_pci(*remote)) target = peer->id;
        }
        if (target.empty() || target == gpu_id) continue;
        Bond& b = bonds[target];
        ++b.links;
        if (!b.version) b.version = l.version;
    }
    for (const auto& [target, bond] : bonds) {
        NvLinkBond facts;
        facts.nvml_version = bond.version;
        facts.version = nvlink_version_from_nvml(bond.version);
        facts.links = bond.links;
        facts.per_link_gbps = nvlink_link_gbps(facts.version);
        const double gbps = facts.per_link_gbps * bond.links;
        // The peer GPU reports the same bond: keep one edge, NVML's facts win over hwloc's.
        auto& edges = graph.mutable_edges();
        // target captured by name: clang 14 (the sanitizer/fuzz build) cannot capture a structured binding.
        auto same = std::find_if(edges.begin(), edges.end(), [&, &target = target](const Edge& e) {
            return e.kind == EdgeKind::NvLink && ((e.a == gpu_id && e.b == target) || (e.a == target && e.b == gpu_id));
        });
        if (same != edges.end()) {
            if (same->source == "nvml") continue;
            edges.erase(same);
        }
        Edge e{.a = gpu_id, .b = target, .kind = EdgeKind::NvLink, .gbps_per_direction = gbps,
               .max_gbps_per_direction = gbps, .source = "nvml"};
        e.nvlink = facts;
        graph.add_edge(std::move(e));
    }
}

// hwloc's NVML plugin may list GPU-to-GPU bandwidth through NVSwitches in its
// NVLinkBandwidth matrix; NVML's fabric edges already describe those links.
void drop_hwloc_links_behind_fabric(Graph& graph) {
    if (!graph.find(kFabricId)) return;
    std::set<std::string> on_fabric;
    for (const Edge* e : graph.edges_of(kFabricId))
        if (e->kind == EdgeKind::NvLink) on_fabric.insert(e->a == kFabricId ? e->b : e->a);
    std::erase_if(graph.mutable_edges(), [&](const Edge& e) {
        return e.kind == EdgeKind::NvLink && e.source != "nvml" && on_fabric.count(e.a) && on_fabric.count(e.b);
    });
}

}  // namespace

int merge_nvml(Graph& graph, const nvml::NvmlSource& source) {
    const unsigned n = source.device_count();
    std::vector<std::string> ids(n);
    std::vector<nvml::DeviceInfo> devices(n);
    for (unsigned i = 0; i < n; ++i) {
        devices[i] = source.device(i);
        auto pci = PciAddress::parse(devices[i].pci_bus_id);
        if (!pci) {
            graph.notes.push_back("NVML device " + std::to_string(i) + " has no usable PCI bus id '" +
                                  devices[i].pci_bus_id + "'; skipped");
            continue;
        }
        const Vertex* found = graph.find_by_pci(*pci);
        Vertex& v = found ? *graph.find(found->id) : add_missing_gpu(graph, *pci, devices[i]);
        fill_gpu(graph, v, i, devices[i]);
        ids[i] = v.id;
    }
    for (unsigned i = 0; i < n; ++i)
        if (!ids[i].empty()) add_nvlinks(graph, ids[i], devices[i]);
    drop_hwloc_links_behind_fabric(graph);
    for (unsigned a = 0; a < n; ++a) {
        if (ids[a].empty()) continue;
        Vertex& v = *graph.find(ids[a]);
        for (unsigned b = 0; b < n; ++b) {
            if (a == b) continue;
            std::string text;
            for (int c = 0; c < nvml::kP2pCapabilityCount; ++c) {
                const auto cap = static_cast<nvml::P2pCapability>(c);
                const int status = source.p2p_status(a, b, cap);
                if (status >= 0) text += std::string(text.empty() ? "" : " ") + to_string(cap) + "=" + nvml::p2p_status_text(status);
            }
            const std::string key = "nvml" + std::to_string(b);
            if (!text.empty()) v.attrs["p2p_to_" + key] = text;
            if (int level = source.common_ancestor(a, b); level >= 0)
                v.attrs["nvml_common_ancestor_" + key] = std::to_string(level);
        }
    }
    const nvml::Versions versions = source.versions();
    graph.provenance["nvml"] = source.origin();
    if (!versions.driver.empty()) graph.provenance["driver_version"] = versions.driver;
    if (!versions.nvml.empty()) graph.provenance["nvml_version"] = versions.nvml;
    if (versions.cuda_driver) graph.provenance["cuda_driver_version"] = std::to_string(versions.cuda_driver);
    return static_cast<int>(n);
}

}  // namespace hwcomm
