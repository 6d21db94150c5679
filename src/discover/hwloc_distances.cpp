// Edges from hwloc's distance matrices: the SMP interconnect between packages
// (NUMALatency) and NVLink (NVLinkBandwidth, MB/s per direction summed over the
// bonded links, between NVML OS devices and CPU packages).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <hwloc.h>

#include "core/link_rates.hpp"
#include "discover/hwloc_source.hpp"

namespace hwcomm {

namespace {

// Owns the array hwloc_distances_get_by_name hands out.
class DistanceMatrices {
public:
    DistanceMatrices(hwloc_topology_t topology, const char* name) : topo_(topology) {
        unsigned nr = 0;
        if (hwloc_distances_get_by_name(topo_, name, &nr, nullptr, 0) != 0 || nr == 0) return;
        list_.resize(nr);
        if (hwloc_distances_get_by_name(topo_, name, &nr, list_.data(), 0) != 0) nr = 0;
        list_.resize(nr);
    }
    ~DistanceMatrices() {
        for (auto* d : list_) hwloc_distances_release(topo_, d);
    }
    DistanceMatrices(const DistanceMatrices&) = delete;
    DistanceMatrices& operator=(const DistanceMatrices&) = delete;
    const std::vector<hwloc_distances_s*>& list() const { return list_; }

private:
    hwloc_topology_t topo_;
    std::vector<hwloc_distances_s*> list_;
};

std::vector<std::string> numa_of_package(const Graph& graph, const std::string& package) {
    std::vector<std::string> out;
    for (const Edge* e : graph.edges_of(package))
        if (e->kind == EdgeKind::Membership && e->a == package) out.push_back(e->b);
    return out;
}

// The vertex an NVLinkBandwidth object stands for: a package, or the GPU an
// NVML OS device belongs to.
std::string vertex_for(hwloc_obj_t obj, const HwlocObjectIds& ids) {
    if (obj->type == HWLOC_OBJ_OS_DEVICE && obj->parent) obj = obj->parent;
    auto it = ids.find(obj);
    return it == ids.end() ? "" : it->second;
}

// An NVLink peer that is neither a GPU nor a CPU is an NVSwitch, even when the
// export lost its vendor id (hwloc only puts bridge-class functions there).
void recognise_nvswitch(Graph& graph, Vertex& v) {
    v.kind = VertexKind::NvSwitch;
    v.name = "NVSwitch (" + v.name + ")";
    v.attrs["recognised_by"] = "NVLinkBandwidth peer";
    graph.notes.push_back("NVLink peer " + (v.pci ? v.pci->to_string() : v.id) +
                          " has no NVIDIA NVSwitch PCI identity (vendor " + v.attrs["vendor_id"] +
                          "): taken as an NVSwitch because GPUs' NVLinks end there");
}

}  // namespace

void add_smp_edges(Graph& graph, hwloc_topology_t topology) {
    // NUMA latency between os indexes, when the OS gives a matrix.
    std::map<std::pair<unsigned, unsigned>, std::uint64_t> latency;
    DistanceMatrices matrices(topology, "NUMALatency");
    for (const auto* d : matrices.list())
        for (unsigned i = 0; i < d->nbobjs; ++i)
            for (unsigned j = 0; j < d->nbobjs; ++j)
                latency[{d->objs[i]->os_index, d->objs[j]->os_index}] = d->values[i * d->nbobjs + j];

    const auto packages = graph.of_kind(VertexKind::Package);
    for (std::size_t i = 0; i < packages.size(); ++i) {
        for (std::size_t j = i + 1; j < packages.size(); ++j) {
            // The SMP link's distance: the nearest pair of NUMA nodes across it.
            std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
            for (const auto& a : numa_of_package(graph, packages[i]->id))
                for (const auto& b : numa_of_package(graph, packages[j]->id)) {
                    auto it = latency.find({static_cast<unsigned>(graph.find(a)->os_index),
                                            static_cast<unsigned>(graph.find(b)->os_index)});
                    if (it != latency.end()) best = std::min(best, it->second);
                }
            Edge e{.a = packages[i]->id, .b = packages[j]->id, .kind = EdgeKind::Smp, .source = "hwloc"};
            if (best != std::numeric_limits<std::uint64_t>::max()) e.smp_distance = static_cast<int>(best);
            graph.add_edge(std::move(e));
        }
    }
}

void add_nvlink_from_distances(Graph& graph, hwloc_topology_t topology, const HwlocObjectIds& ids) {
    DistanceMatrices matrices(topology, "NVLinkBandwidth");
    for (const auto* d : matrices.list()) {
        for (unsigned i = 0; i < d->nbobjs; ++i) {
            for (unsigned j = i + 1; j < d->nbobjs; ++j) {
                // Symmetric in practice; the smaller direction is what both can use.
                const std::uint64_t mbps = std::min(d->values[i * d->nbobjs + j], d->values[j * d->nbobjs + i]);
                if (mbps == 0) continue;
                std::string a = vertex_for(d->objs[i], ids);
                std::string b = vertex_for(d->objs[j], ids);
                if (a.empty() || b.empty() || a == b || graph.edge_between(a, b, EdgeKind::NvLink)) continue;
                Vertex* va = graph.find(a);
                Vertex* vb = graph.find(b);
                if (va->kind != VertexKind::Gpu) std::swap(a, b), std::swap(va, vb);  // a is a GPU
                if (va->kind != VertexKind::Gpu) continue;
                if (vb->kind == VertexKind::PciDevice) recognise_nvswitch(graph, *vb);
                NvLinkBond bond;
                bond.version = va->gpu ? nvlink_version_for_model(va->gpu->model) : "";
                bond.per_link_gbps = nvlink_link_gbps(bond.version);
                // hwloc's NVML backend writes 20000 MB/s per NVLink 1.0 link and
                // 25000 per later link, whatever the real rate: count links by
                // its convention, rate them by the version.
                const double hwloc_link_mbps = bond.version == "1.0" ? 20000.0 : 25000.0;
                bond.links = std::max(1, static_cast<int>(std::lround(static_cast<double>(mbps) / hwloc_link_mbps)));
                // Without a known version the matrix value is all there is.
                const double gbps = bond.per_link_gbps > 0 ? bond.per_link_gbps * bond.links
                                                           : static_cast<double>(mbps) / 1000.0;  // MB/s -> GB/s
                Edge e{.a = a, .b = b, .kind = EdgeKind::NvLink, .gbps_per_direction = gbps,
                       .max_gbps_per_direction = gbps, .source = "hwloc:NVLinkBandwidth"};
                e.nvlink = bond;
                graph.add_edge(std::move(e));
            }
        }
    }
}

void add_xgmi_from_distances(Graph& graph, hwloc_topology_t topology, const HwlocObjectIds& ids) {
    // hwloc's RSMI backend: MB/s per direction between RSMI OS devices (a
    // fixed 100000 per XGMI-connected pair in hwloc 2.x), 1000000 on the diagonal.
    DistanceMatrices matrices(topology, "XGMIBandwidth");
    for (const auto* d : matrices.list()) {
        for (unsigned i = 0; i < d->nbobjs; ++i) {
            for (unsigned j = i + 1; j < d->nbobjs; ++j) {
                const std::uint64_t mbps = std::min(d->values[i * d->nbobjs + j], d->values[j * d->nbobjs + i]);
                const std::string a = vertex_for(d->objs[i], ids);
                const std::string b = vertex_for(d->objs[j], ids);
                if (mbps == 0 || a.empty() || b.empty() || a == b || graph.edge_between(a, b, EdgeKind::Xgmi)) continue;
                const double gbps = static_cast<double>(mbps) / 1000.0;
                graph.add_edge({.a = a, .b = b, .kind = EdgeKind::Xgmi, .gbps_per_direction = gbps,
                                .max_gbps_per_direction = gbps, .source = "hwloc:XGMIBandwidth"});
            }
        }
    }
}

}  // namespace hwcomm
