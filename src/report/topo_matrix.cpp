#include "report/topo_matrix.hpp"

#include <algorithm>

#include "core/paths.hpp"

namespace hwcomm {

namespace {

std::vector<const Vertex*> gpus_in_nvml_order(const Graph& graph) {
    auto gpus = graph.of_kind(VertexKind::Gpu);
    const bool all_nvml = std::all_of(gpus.begin(), gpus.end(), [](const Vertex* v) { return v->gpu && v->gpu->nvml_index >= 0; });
    std::stable_sort(gpus.begin(), gpus.end(), [&](const Vertex* a, const Vertex* b) {
        if (all_nvml) return a->gpu->nvml_index < b->gpu->nvml_index;
        if (a->pci && b->pci) return *a->pci < *b->pci;
        return a->id < b->id;
    });
    return gpus;
}

// nvidia-smi lists RDMA devices (mlx5_0...), not every network interface.
std::vector<const Vertex*> rdma_nics(const Graph& graph) {
    std::vector<const Vertex*> nics;
    for (const Vertex* v : graph.of_kind(VertexKind::NetworkInterface)) {
        auto it = v->attrs.find("rdma");
        if (it != v->attrs.end() && it->second == "true") nics.push_back(v);
    }
    auto controller = [&](const Vertex* v) {
        for (const Edge* e : graph.edges_of(v->id))
            if (e->kind == EdgeKind::Attach && e->b == v->id)
                if (const Vertex* c = graph.find(e->a); c && c->pci) return c->pci->to_string();
        return std::string("~");
    };
    std::stable_sort(nics.begin(), nics.end(), [&](const Vertex* a, const Vertex* b) {
        return std::make_pair(controller(a), a->name) < std::make_pair(controller(b), b->name);
    });
    return nics;
}

std::string join_ints(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
        out += (out.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
        i = j + 1;
    }
    return out;
}

std::string numa_affinity(const Graph& graph, const Vertex& gpu) {
    std::vector<int> nodes = gpu.gpu ? gpu.gpu->numa_affinity : std::vector<int>{};
    if (nodes.empty())
        for (const auto& id : numa_nodes_of(graph, gpu.id))
            if (const Vertex* n = graph.find(id); n && n->os_index >= 0) nodes.push_back(n->os_index);
    return nodes.empty() ? "N/A" : join_ints(nodes);
}

}  // namespace

TopoMatrix build_topo_matrix(const Graph& graph) {
    TopoMatrix m;
    const auto gpus = gpus_in_nvml_order(graph);
    const auto nics = rdma_nics(graph);
    m.gpu_count = gpus.size();
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const Vertex& g = *gpus[i];
        m.labels.push_back("GPU" + std::to_string(i));
        m.ids.push_back(g.id);
        m.cpu_affinity.push_back(g.gpu && !g.gpu->cpu_affinity.empty() ? g.gpu->cpu_affinity : "N/A");
        m.numa_affinity.push_back(numa_affinity(graph, g));
        auto it = g.attrs.find("gpu_numa_id");
        m.gpu_numa_id.push_back(it == g.attrs.end() ? "N/A" : it->second);
    }
    for (std::size_t i = 0; i < nics.size(); ++i) {
        m.labels.push_back("NIC" + std::to_string(i));
        m.ids.push_back(nics[i]->id);
        m.nic_names.push_back(nics[i]->name);
        m.cpu_affinity.emplace_back();
        m.numa_affinity.emplace_back();
        m.gpu_numa_id.emplace_back();
    }
    for (const auto& a : m.ids) {
        std::vector<std::string> row;
        for (const auto& b : m.ids) row.push_back(classify_path(graph, a, b).label());
        m.cells.push_back(std::move(row));
    }
    return m;
}

void print_topo_matrix(const TopoMatrix& m, std::ostream& out, bool legend) {
    for (const auto& l : m.labels) out << "\t" << l;
    out << "\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n";
    for (std::size_t r = 0; r < m.labels.size(); ++r) {
        out << m.labels[r];
        for (const auto& cell : m.cells[r]) out << "\t" << (cell == "X" ? " X " : cell);
        if (r < m.gpu_count) out << "\t" << m.cpu_affinity[r] << "\t" << m.numa_affinity[r] << "\t\t" << m.gpu_numa_id[r];
        out << "\n";
    }
    if (!legend) return;
    out << "\nLegend:\n\n"
           "  X    = Self\n"
           "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n"
           "  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node\n"
           "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
           "  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n"
           "  PIX  = Connection traversing at most a single PCIe bridge\n"
           "  NV#  = Connection traversing a bonded set of # NVLinks\n";
    if (m.nic_names.empty()) return;
    out << "\nNIC Legend:\n\n";
    for (std::size_t i = 0; i < m.nic_names.size(); ++i) out << "  NIC" << i << ": " << m.nic_names[i] << "\n";
}

}  // namespace hwcomm
