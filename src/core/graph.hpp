#pragma once
// The machine as a graph G = (V, E). Vertices carry stable string ids
// ("package0", "numa1", "gpu0", "pci:0000:00:06.0", "nvswitch-fabric") that the
// results file and the command line use; edges carry the theoretical
// bandwidth of the link per direction.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/pci_address.hpp"

namespace hwcomm {

enum class VertexKind {
    Package,          // CPU socket
    NumaNode,
    HostBridge,       // PCIe root (hwloc "HostBridge")
    PciBridge,        // PCIe bridge or switch port
    PciDevice,        // any PCI function not described more precisely
    Gpu,
    NvSwitch,
    NvSwitchFabric,   // NVSwitches hidden from a VM: one vertex stands for all
    BlockDevice,
    NetworkInterface,
};

// An NVSwitch, seen or standing for hidden ones.
inline bool is_nvswitch(VertexKind kind) { return kind == VertexKind::NvSwitch || kind == VertexKind::NvSwitchFabric; }

enum class EdgeKind {
    Smp,       // interconnect between packages (QPI/UPI/X-Bus...)
    Membership,// package <-> NUMA node, NUMA node <-> host bridge (I/O locality)
    Pcie,
    NvLink,
    Attach,    // a disk or NIC to its controller (OS device to its PCI function)
    Xgmi,      // AMD Infinity Fabric between GPUs (hwloc's XGMIBandwidth)
};

const char* to_string(VertexKind kind);
const char* to_string(EdgeKind kind);
std::optional<VertexKind> vertex_kind_from_string(const std::string& text);
std::optional<EdgeKind> edge_kind_from_string(const std::string& text);

struct NumaInfo {
    std::uint64_t memory_bytes = 0;
    std::string cpuset;           // hwloc list syntax, e.g. "0-15,32-47"
    std::vector<unsigned> pus;    // OS indexes of the processing units
    unsigned cores = 0;           // physical cores
};

struct GpuInfo {
    std::string model;            // "NVIDIA H200"
    std::string uuid;             // "GPU-2433dbea-..."
    int cuda_ordinal = -1;        // -1 when CUDA did not report it
    int nvml_index = -1;
    std::uint64_t memory_bytes = 0;
    int sm_count = 0;
    int cc_major = 0;
    int cc_minor = 0;
    std::string cpu_affinity;     // cpuset list from NVML, e.g. "0-31"
    std::vector<int> numa_affinity; // NUMA nodes NVML reports near the GPU
};

struct Vertex {
    std::string id;
    VertexKind kind = VertexKind::PciDevice;
    std::string name;                 // human label
    int os_index = -1;                // package / NUMA OS index
    std::optional<PciAddress> pci;
    std::optional<NumaInfo> numa;
    std::optional<GpuInfo> gpu;
    std::map<std::string, std::string> attrs;  // extra facts (driver, vendor ids, model...)
};

struct PcieLink {
    int generation = 0;       // current
    int width = 0;            // current lanes
    int max_generation = 0;
    int max_width = 0;
};

struct NvLinkBond {
    std::string version;      // marketing version, "4.0"
    int nvml_version = 0;     // NVML enum value, 0 when unknown (hwloc)
    int links = 0;            // bonded links
    double per_link_gbps = 0; // GB/s per direction per link
};

struct Edge {
    std::string a;            // vertex ids; a is the upstream/parent end where one exists
    std::string b;
    EdgeKind kind = EdgeKind::Membership;
    double gbps_per_direction = 0;     // theoretical, current state; 0 = no source gives it (unknown)
    double max_gbps_per_direction = 0; // theoretical at max negotiated state
    // No link of its own that could limit (inside a chip or switch: host bridge
    // -> root port, switch upstream -> downstream port; NVSwitch trunks that no
    // source shows): never a bottleneck, never "unknown".
    bool internal = false;
    std::optional<PcieLink> pcie;
    std::optional<NvLinkBond> nvlink;
    int smp_distance = 0;     // NUMA distance for SMP edges
    std::string source;       // which discovery source created it
};

class Graph {
public:
    // Adds a vertex; throws std::invalid_argument when the id exists.
    Vertex& add_vertex(Vertex v);
    Edge& add_edge(Edge e);
    const Vertex* find(const std::string& id) const;
    Vertex* find(const std::string& id);
    const Vertex* find_by_pci(const PciAddress& address) const;  // same_device() match
    std::vector<const Vertex*> of_kind(VertexKind kind) const;   // in insertion order
    std::vector<const Edge*> edges_of(const std::string& id) const;
    const Edge* edge_between(const std::string& a, const std::string& b, std::optional<EdgeKind> kind = std::nullopt) const;
    // Removes a vertex and every edge touching it.
    void remove_vertex(const std::string& id);

    const std::deque<Vertex>& vertices() const { return vertices_; }
    const std::vector<Edge>& edges() const { return edges_; }
    std::vector<Edge>& mutable_edges() { return edges_; }

    // Free-form remarks of discovery ("no NVIDIA driver: CPU-only graph").
    std::vector<std::string> notes;
    // Where the graph came from: "live", "xml:FILE", "fsroot:DIR"; plus NVML/CUDA state.
    std::map<std::string, std::string> provenance;

private:
    std::deque<Vertex> vertices_;  // deque: add_vertex keeps earlier pointers valid
    std::vector<Edge> edges_;
};

}  // namespace hwcomm
