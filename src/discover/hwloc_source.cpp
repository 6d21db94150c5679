#include "discover/hwloc_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "discover/names.hpp"

namespace hwcomm {

namespace {

std::string bitmap_list(hwloc_const_bitmap_t set) {
    char* raw = nullptr;
    if (hwloc_bitmap_list_asprintf(&raw, set) < 0 || !raw) return "";
    std::unique_ptr<char, decltype(&std::free)> owned(raw, &std::free);
    return raw;
}

std::vector<int> bitmap_indexes(hwloc_const_bitmap_t set) {
    std::vector<int> out;
    for (int i = hwloc_bitmap_first(set); i >= 0; i = hwloc_bitmap_next(set, i)) out.push_back(i);
    return out;
}

std::string info(hwloc_obj_t obj, const char* name) {
    const char* v = hwloc_obj_get_info_by_name(obj, name);
    return v ? v : "";
}

std::string hex4(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", v & 0xffffu);
    return buf;
}

PciAddress pci_of(hwloc_obj_t obj) {
    const auto& p = obj->attr->pcidev;
    return PciAddress{static_cast<std::uint32_t>(p.domain), p.bus, p.dev, p.func};
}

class Builder {
public:
    explicit Builder(hwloc_topology_t topology) : topo_(topology) {}

    Graph build() {
        add_packages_and_numa();
        for (hwloc_obj_t b = nullptr; (b = hwloc_get_next_bridge(topo_, b));)
            if (b->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) add_host_bridge(b);
        add_unparented_os_devices();
        link_gpu_memory(graph_);
        add_smp_edges(graph_, topo_);
        add_nvlink_from_distances(graph_, topo_, ids_);
        add_xgmi_from_distances(graph_, topo_, ids_);
        return std::move(graph_);
    }

private:
    hwloc_topology_t topo_;
    Graph graph_;
    HwlocObjectIds ids_;
    std::map<std::string, int> next_suffix_;  // per base id: where unique_id resumes its search

    // Ids must be unique even when an export lists one PCI address many times;
    // resuming the search keeps that linear (issue 16: 3,000 repeats took 23 s).
    std::string unique_id(const std::string& base) {
        if (!graph_.find(base)) return base;
        for (int& n = next_suffix_[base];;) {
            const std::string id = base + "#" + std::to_string(++n);
            if (!graph_.find(id)) return id;
        }
    }

    static bool attached_below(hwloc_obj_t node, hwloc_obj_t ancestor) {
        for (hwloc_obj_t o = node->parent; o; o = o->parent)
            if (o == ancestor) return true;
        return false;
    }

    static int index_of(hwloc_obj_t obj) {
        return obj->os_index == HWLOC_UNKNOWN_INDEX ? static_cast<int>(obj->logical_index)
                                                    : static_cast<int>(obj->os_index);
    }

    void add_packages_and_numa() {
        std::vector<hwloc_obj_t> packages;
        for (hwloc_obj_t p = nullptr; (p = hwloc_get_next_obj_by_type(topo_, HWLOC_OBJ_PACKAGE, p));) {
            Vertex v{.id = "package" + std::to_string(index_of(p)), .kind = VertexKind::Package};
            v.os_index = index_of(p);
            const std::string model = info(p, "CPUModel");
            v.name = "Package " + std::to_string(v.os_index) + (model.empty() ? "" : " (" + trim_cpu_model(model) + ")");
            if (!model.empty()) v.attrs["cpu_model"] = model;
            v.attrs["cpuset"] = bitmap_list(p->cpuset);
            ids_[p] = graph_.add_vertex(std::move(v)).id;
            packages.push_back(p);
        }
        for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, n));) {
            Vertex v{.id = "numa" + std::to_string(index_of(n)), .kind = VertexKind::NumaNode};
            v.os_index = index_of(n);
            v.name = "NUMA node " + std::to_string(v.os_index);
            NumaInfo numa;
            numa.memory_bytes = n->attr->numanode.local_memory;
            numa.cpuset = bitmap_list(n->cpuset);
            for (int pu : bitmap_indexes(n->cpuset)) numa.pus.push_back(static_cast<unsigned>(pu));
            const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo_, n->cpuset, HWLOC_OBJ_CORE);
            numa.cores = cores > 0 ? static_cast<unsigned>(cores) : 0u;
            v.numa = numa;
            if (n->subtype && std::string(n->subtype) == "GPUMemory") mark_gpu_memory(n, v);
            const std::string id = graph_.add_vertex(std::move(v)).id;
            ids_[n] = id;
            // A package holds the NUMA nodes attached inside it (CPU-less ones too).
            // Not its nodeset: that also lists the nodes of its ancestors, so a
            // GPU's memory attached to the Machine (IBM AC922) would belong to
            // every socket.
            for (hwloc_obj_t p : packages)
                if (attached_below(n, p))
                    graph_.add_edge({.a = ids_[p], .b = id, .kind = EdgeKind::Membership, .source = "hwloc"});
        }
    }

    // Disks and NICs below no PCI function (virtio, SATA behind a platform
    // controller, NVMe namespaces hwloc could not place): attached to the NUMA
    // node of their place in the tree when it has exactly one, else unattached.
    void add_unparented_os_devices() {
        for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_osdev(topo_, o));) {
            if (ids_.count(o) || (o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE)) continue;
            hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo_, o);
            const auto nodes = bitmap_indexes(local->nodeset);
            const std::string numa = nodes.size() == 1 ? "numa" + std::to_string(nodes.front()) : "";
            add_os_device(o, graph_.find(numa) ? numa : "");
            if (ids_.count(o) && !graph_.find(numa))
                graph_.notes.push_back(std::string(o->name) + " sits below no PCI device and no single NUMA node: shown unattached");
        }
    }

    void add_host_bridge(hwloc_obj_t hb) {
        const auto& down = hb->attr->bridge.downstream.pci;
        char buses[32];
        std::snprintf(buses, sizeof buses, "%04x:[%02x-%02x]", static_cast<unsigned>(down.domain),
                      down.secondary_bus, down.subordinate_bus);
        // Named like the kernel's root bus directory (/sys/devices/pci0000:00).
        Vertex v{.id = unique_id("pci" + hex4(down.domain) + ":" + std::string(buses).substr(6, 2)),
                 .kind = VertexKind::HostBridge};
        v.name = std::string("Host bridge ") + buses;
        v.attrs["buses"] = buses;
        const std::string id = graph_.add_vertex(std::move(v)).id;
        ids_[hb] = id;
        // I/O locality: the NUMA nodes of the first non-I/O ancestor.
        hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo_, hb);
        for (int node : bitmap_indexes(local->nodeset)) {
            const std::string numa = "numa" + std::to_string(node);
            if (graph_.find(numa))
                graph_.add_edge({.a = numa, .b = id, .kind = EdgeKind::Membership, .source = "hwloc"});
        }
        add_io_children(hb, id, "host");
    }

    void add_io_children(hwloc_obj_t parent, const std::string& parent_id, const std::string& parent_port) {
        for (hwloc_obj_t c = parent->io_first_child; c; c = c->next_sibling) {
            if (c->type == HWLOC_OBJ_BRIDGE) add_pci_bridge(c, parent_id, parent_port);
            else if (c->type == HWLOC_OBJ_PCI_DEVICE) add_pci_device(c, parent_id);
            else if (c->type == HWLOC_OBJ_OS_DEVICE) add_os_device(c, parent_id);
        }
    }

    void add_pci_common(hwloc_obj_t obj, Vertex& v) {
        const auto& p = obj->attr->pcidev;
        v.pci = pci_of(obj);
        v.attrs["vendor_id"] = hex4(p.vendor_id);
        v.attrs["device_id"] = hex4(p.device_id);
        v.attrs["class"] = hex4(p.class_id);
        const std::string vendor = info(obj, "PCIVendor");
        if (!vendor.empty()) v.attrs["vendor"] = vendor;
        if (p.linkspeed > 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(p.linkspeed));
            v.attrs["hwloc_link_gbps"] = buf;
        }
    }

    std::string label_of(hwloc_obj_t obj, const char* what) {
        const std::string device = info(obj, "PCIDevice");
        const std::string vendor = short_vendor(info(obj, "PCIVendor"));
        if (!device.empty()) return vendor.empty() ? device : vendor + " " + device;
        const auto& p = obj->attr->pcidev;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s %04x:%04x class %04x", what, p.vendor_id, p.device_id, p.class_id);
        return buf;
    }

    // The edge parent -> child carries the child's link. hwloc reports on each
    // port the link it is attached to, so the links host bridge -> root port and
    // switch upstream -> downstream port are internal (no PCIe link to limit).
    void add_pcie_edge(const std::string& parent, const std::string& child, hwloc_obj_t obj, bool internal) {
        Edge e{.a = parent, .b = child, .kind = EdgeKind::Pcie, .internal = internal, .source = "hwloc"};
        if (!internal) e.gbps_per_direction = obj->attr->pcidev.linkspeed > 0 ? obj->attr->pcidev.linkspeed : 0.0;
        if (!internal) compare_with_port(*graph_.find(parent), *graph_.find(child), e);
        graph_.add_edge(std::move(e));
    }

    // A root or downstream port reports the same link as the function below
    // it; when the two differ both are kept and the smaller is named. The edge
    // keeps the device's report (hwloc's NVML backend writes a GPU's maximum
    // there, the port gives the current state): which is right is not known.
    static void compare_with_port(const Vertex& port, Vertex& device, Edge& e) {
        auto kind = port.attrs.find("pcie_port");
        auto rate = port.attrs.find("hwloc_link_gbps");
        if (kind == port.attrs.end() || (kind->second != "root" && kind->second != "downstream")) return;
        if (rate == port.attrs.end()) return;
        const double at_port = std::strtod(rate->second.c_str(), nullptr);
        const double at_device = e.gbps_per_direction;
        if (at_port <= 0 || std::abs(at_port - at_device) <= 0.01 * std::max(at_port, at_device)) return;
        device.attrs["link_gbps_at_port"] = rate->second;
        device.attrs["link_gbps_at_device"] = device.attrs.count("hwloc_link_gbps") ? device.attrs["hwloc_link_gbps"] : "unknown";
        device.attrs["link_limited_by"] = at_device > 0 && at_device < at_port ? "device" : "port";
        if (at_device <= 0) e.gbps_per_direction = at_port;
    }

    void add_pci_bridge(hwloc_obj_t b, const std::string& parent_id, const std::string& parent_port) {
        if (b->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_PCI) return;
        Vertex v{.id = unique_id("pci:" + pci_of(b).to_string()), .kind = VertexKind::PciBridge};
        add_pci_common(b, v);
        v.name = label_of(b, "PCI bridge");
        // root port below the host bridge; a switch is an upstream port whose
        // children are its downstream ports.
        const std::string port = parent_port == "host" ? "root" : parent_port == "upstream" ? "downstream" : "upstream";
        v.attrs["pcie_port"] = port;
        const std::string id = graph_.add_vertex(std::move(v)).id;
        ids_[b] = id;
        add_pcie_edge(parent_id, id, b, port == "root" || port == "downstream");
        add_io_children(b, id, port);
    }

    static bool is_nvidia_gpu(hwloc_obj_t d) {
        const auto& p = d->attr->pcidev;
        if (p.vendor_id == 0x10de && (p.class_id >> 8) == 0x03) return true;
        for (hwloc_obj_t c = d->io_first_child; c; c = c->next_sibling) {
            const std::string sub = c->subtype ? c->subtype : "";
            if (c->type == HWLOC_OBJ_OS_DEVICE && (sub == "CUDA" || sub == "NVML")) return true;
        }
        return false;
    }

    // Other vendors' GPUs: an OS device of a GPU management backend (RSMI for
    // AMD, LevelZero for Intel). Not an OpenCL device or the PCI class alone:
    // servers carry small display chips for their BMC (those get a note).
    static std::string other_gpu_vendor(hwloc_obj_t d) {
        for (hwloc_obj_t c = d->io_first_child; c; c = c->next_sibling) {
            if (c->type != HWLOC_OBJ_OS_DEVICE) continue;
            const std::string sub = c->subtype ? c->subtype : "";
            if (sub == "RSMI") return "AMD";
            if (sub == "LevelZero") return "Intel";
        }
        return "";
    }

    void note_unmanaged_gpu(hwloc_obj_t d, const Vertex& v) {
        for (hwloc_obj_t c = d->io_first_child; c; c = c->next_sibling)
            if (c->type == HWLOC_OBJ_OS_DEVICE && hwloc_obj_get_info_by_name(c, "GPUVendor")) {
                graph_.notes.push_back(v.id + " (" + v.name + ") has a GPU compute device (" + (c->name ? c->name : "") +
                                       ") but no GPU management device (NVML, RSMI, LevelZero): shown as a PCI device");
                return;
            }
    }

    // NVIDIA's bridge-class function (0680), or what hwloc's NVML backend
    // marked as an NVLink peer switch (subtype NVSwitch).
    static bool is_nvswitch(hwloc_obj_t d) {
        const auto& p = d->attr->pcidev;
        if (p.vendor_id == 0x10de && p.class_id == 0x0680) return true;
        return d->subtype && std::string(d->subtype) == "NVSwitch";
    }

    static int ordinal_from_name(const char* name, const char* prefix) {
        const std::string n = name ? name : "";
        const std::string p = prefix;
        if (n.size() <= p.size() || n.compare(0, p.size(), p) != 0) return -1;
        const std::string digits = n.substr(p.size());
        if (digits.find_first_not_of("0123456789") != std::string::npos) return -1;
        return std::atoi(digits.c_str());
    }

    GpuInfo gpu_info(hwloc_obj_t d) {
        GpuInfo g;
        hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo_, d);
        g.cpu_affinity = bitmap_list(local->cpuset);
        g.numa_affinity = bitmap_indexes(local->nodeset);
        for (hwloc_obj_t c = d->io_first_child; c; c = c->next_sibling) {
            if (c->type != HWLOC_OBJ_OS_DEVICE) continue;
            if (const std::string model = info(c, "GPUModel"); !model.empty() && g.model.empty()) g.model = model;
            if (const std::string uuid = info(c, "NVIDIAUUID"); !uuid.empty()) g.uuid = uuid;
            if (int k = ordinal_from_name(c->name, "cuda"); k >= 0) {
                g.cuda_ordinal = k;
                g.memory_bytes = std::strtoull(info(c, "CUDAGlobalMemorySize").c_str(), nullptr, 10) * 1024;
                g.sm_count = std::atoi(info(c, "CUDAMultiProcessors").c_str());
            }
            if (int k = ordinal_from_name(c->name, "nvml"); k >= 0) g.nvml_index = k;
            if (const std::string kib = info(c, "RSMIVRAMSize"); !kib.empty())
                g.memory_bytes = std::strtoull(kib.c_str(), nullptr, 10) * 1024;
        }
        if (g.model.empty()) g.model = label_of(d, "GPU");
        return g;
    }

    void add_pci_device(hwloc_obj_t d, const std::string& parent_id) {
        Vertex v{.id = unique_id("pci:" + pci_of(d).to_string()), .kind = VertexKind::PciDevice};
        add_pci_common(d, v);
        v.name = label_of(d, "PCI device");
        if (is_nvidia_gpu(d)) {
            v.kind = VertexKind::Gpu;
            v.gpu = gpu_info(d);
            v.name = v.gpu->model;
            v.attrs["gpu_vendor"] = "NVIDIA";
        } else if (const std::string vendor = other_gpu_vendor(d); !vendor.empty()) {
            v.kind = VertexKind::Gpu;
            v.gpu = gpu_info(d);
            v.name = v.gpu->model;
            v.attrs["gpu_vendor"] = vendor;
        } else if (is_nvswitch(d)) {
            v.kind = VertexKind::NvSwitch;
            v.name = "NVSwitch (" + v.name + ")";
        } else {
            note_unmanaged_gpu(d, v);
        }
        std::string os_devices;
        for (hwloc_obj_t c = d->io_first_child; c; c = c->next_sibling)
            if (c->type == HWLOC_OBJ_OS_DEVICE && c->name) os_devices += (os_devices.empty() ? "" : ",") + std::string(c->name);
        if (!os_devices.empty()) v.attrs["os_devices"] = os_devices;
        const std::string id = graph_.add_vertex(std::move(v)).id;
        ids_[d] = id;
        add_pcie_edge(parent_id, id, d, false);
        add_io_children(d, id, "device");
    }

    // Disks and NICs become vertices attached to their controller; GPU, DMA and
    // co-processor OS devices are facts of their PCI function (os_devices attr).
    void add_os_device(hwloc_obj_t o, const std::string& parent_id) {
        if (!o->name) return;
        const auto type = o->attr->osdev.type;
        Vertex v;
        if (type == HWLOC_OBJ_OSDEV_BLOCK) {
            v = Vertex{.id = unique_id(std::string("disk:") + o->name), .kind = VertexKind::BlockDevice};
        } else if (type == HWLOC_OBJ_OSDEV_NETWORK || type == HWLOC_OBJ_OSDEV_OPENFABRICS) {
            v = Vertex{.id = unique_id(std::string("net:") + o->name), .kind = VertexKind::NetworkInterface};
            // RDMA devices (mlx5_0) are the NICs nvidia-smi topo -m lists.
            if (type == HWLOC_OBJ_OSDEV_OPENFABRICS) v.attrs["rdma"] = "true";
            if (const std::string addr = info(o, "Address"); !addr.empty()) v.attrs["address"] = addr;
        } else {
            return;
        }
        v.name = o->name;
        const std::string id = graph_.add_vertex(std::move(v)).id;
        ids_[o] = id;
        if (!parent_id.empty()) graph_.add_edge({.a = parent_id, .b = id, .kind = EdgeKind::Attach, .source = "hwloc"});
    }
};

}  // namespace

Graph graph_from_hwloc(hwloc_topology_t topology) { return Builder(topology).build(); }

std::string nvlink_version_for_model(const std::string& model) {
    // Generation by GPU family; only used when no NVML reports the version.
    struct Family { const char* marker; const char* version; };
    static constexpr Family kFamilies[] = {
        {"P100", "1.0"}, {"V100", "2.0"}, {"A100", "3.0"}, {"A800", "3.0"},
        {"H100", "4.0"}, {"H200", "4.0"}, {"H800", "4.0"}, {"GH200", "4.0"},
        {"B100", "5.0"}, {"B200", "5.0"}, {"GB200", "5.0"},
    };
    for (const auto& f : kFamilies)
        if (model.find(f.marker) != std::string::npos) return f.version;
    return "";
}

}  // namespace hwcomm
