#pragma once
// Graphs of NUMA nodes for the CPU-method tests: hand-made, or read from an
// hwloc XML fixture with the ids discovery uses ("numa<os_index>").
#include <stdexcept>
#include <string>

#include <hwloc.h>

#include "core/graph.hpp"

namespace hwcomm::test {

inline Vertex numa_vertex(int os, unsigned cores) {
    Vertex v;
    v.id = "numa" + std::to_string(os);
    v.kind = VertexKind::NumaNode;
    v.os_index = os;
    NumaInfo info;
    info.cores = cores;
    for (unsigned i = 0; i < cores; ++i) info.pus.push_back(static_cast<unsigned>(os) * 100 + i);
    v.numa = info;
    return v;
}

inline Graph numa_graph_from_xml(const std::string& path) {
    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    if (hwloc_topology_set_xml(topo, path.c_str()) != 0 || hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        throw std::runtime_error("cannot load " + path);
    }
    Graph g;
    hwloc_obj_t node = nullptr;
    while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)) != nullptr) {
        const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo, node->cpuset, HWLOC_OBJ_CORE);
        g.add_vertex(numa_vertex(static_cast<int>(node->os_index), static_cast<unsigned>(cores)));
    }
    hwloc_topology_destroy(topo);
    return g;
}

}  // namespace hwcomm::test
