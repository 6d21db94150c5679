#include "fixture_graphs.hpp"

#include <algorithm>
#include <functional>

#include "discover/discover.hpp"
#include "discover/gpu_ids.hpp"
#include "discover/nvml_api.hpp"
#include "discover/nvml_source.hpp"

namespace hwcomm::test {

Graph xml_graph(const std::string& name) {
    return discover_machine({.input_xml = std::string(HWCOMM_FIXTURES) + "/hwloc/" + name});
}

Graph nvml_graph(const std::string& recording, unsigned cpus) {
    Graph g;
    g.add_vertex({.id = "package0", .kind = VertexKind::Package, .os_index = 0});
    Vertex numa{.id = "numa0", .kind = VertexKind::NumaNode, .os_index = 0};
    NumaInfo info;
    info.cpuset = "0-" + std::to_string(cpus - 1);
    info.cores = cpus;
    for (unsigned i = 0; i < cpus; ++i) info.pus.push_back(i);
    numa.numa = info;
    g.add_vertex(numa);
    g.add_edge({.a = "package0", .b = "numa0", .kind = EdgeKind::Membership});
    merge_nvml(g, *nvml::open_nvml_replay(std::string(HWCOMM_FIXTURES) + "/nvml/" + recording));
    assign_gpu_ids(g);
    return g;
}

std::vector<ClassMember> gpu_pairs(const Graph& graph) {
    std::vector<ClassMember> out;
    for (const Vertex* a : graph.of_kind(VertexKind::Gpu))
        for (const Vertex* b : graph.of_kind(VertexKind::Gpu))
            if (a != b) out.push_back({a->id, b->id});
    return out;
}

std::vector<ClassMember> host_gpu_pairs(const Graph& graph) {
    std::vector<ClassMember> out;
    for (const Vertex* n : graph.of_kind(VertexKind::NumaNode)) {
        if (!n->numa || n->numa->pus.empty()) continue;
        for (const Vertex* g : graph.of_kind(VertexKind::Gpu)) {
            out.push_back({n->id, g->id});
            out.push_back({g->id, n->id});
        }
    }
    return out;
}

std::vector<std::size_t> sizes(const ClassMap& map) {
    std::vector<std::size_t> out;
    for (const LinkClass& c : map.classes) out.push_back(c.members.size());
    std::sort(out.begin(), out.end(), std::greater<>());
    return out;
}

std::string class_of(const ClassMap& map, const std::string& src, const std::string& dst) {
    const LinkClass* c = map.find({src, dst});
    return c ? c->id : "";
}

std::string dump(const ClassMap& map) {
    std::string out;
    for (const LinkClass& c : map.classes) {
        out += c.id + " (" + std::to_string(c.members.size()) + ") " + c.description + "\n    " + c.signature + "\n    ";
        for (const ClassMember& m : c.members) out += m.src + ">" + m.dst + " ";
        out += "\n";
    }
    for (const std::string& n : map.notes) out += "note: " + n + "\n";
    return out;
}

}  // namespace hwcomm::test
