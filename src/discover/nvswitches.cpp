#include "discover/nvswitches.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "discover/gpu_ids.hpp"
#include "discover/nvml_source.hpp"

namespace hwcomm {

namespace {

std::string other_end(const Edge& e, const std::string& id) { return e.a == id ? e.b : e.a; }

// Switches reachable from `start` over NVLink edges through GPUs and switches.
std::set<std::string> nvlink_group(const Graph& graph, const std::string& start) {
    std::set<std::string> seen{start};
    std::vector<std::string> todo{start};
    while (!todo.empty()) {
        const std::string cur = todo.back();
        todo.pop_back();
        for (const Edge* e : graph.edges_of(cur)) {
            if (e->kind != EdgeKind::NvLink) continue;
            const std::string next = other_end(*e, cur);
            const VertexKind k = graph.find(next)->kind;
            if (k != VertexKind::Gpu && k != VertexKind::NvSwitch) continue;
            if (seen.insert(next).second) todo.push_back(next);
        }
    }
    return seen;
}

// "nvswitch0..5" for a run of ids, else the list.
std::string describe_group(const std::vector<std::string>& ids) {
    if (ids.size() < 3) {
        std::string out;
        for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
        return out;
    }
    return ids.front() + ".." + ids.back().substr(std::string("nvswitch").size());
}

}  // namespace

void assign_nvswitch_ids(Graph& graph) {
    auto switches = graph.of_kind(VertexKind::NvSwitch);
    std::stable_sort(switches.begin(), switches.end(), [](const Vertex* a, const Vertex* b) {
        if (a->pci && b->pci) return *a->pci < *b->pci;
        return a->pci.has_value() && !b->pci.has_value();
    });
    std::map<std::string, std::string> renames;
    for (std::size_t k = 0; k < switches.size(); ++k) {
        const std::string id = "nvswitch" + std::to_string(k);
        if (switches[k]->id != id) renames[switches[k]->id] = id;
    }
    rename_vertices(graph, renames);
}

int join_nvswitch_fabric(Graph& graph) {
    std::vector<std::vector<std::string>> groups;
    std::set<std::string> placed;
    for (const Vertex* s : graph.of_kind(VertexKind::NvSwitch)) {
        if (placed.count(s->id)) continue;
        std::vector<std::string> group;
        for (const auto& id : nvlink_group(graph, s->id))
            if (graph.find(id)->kind == VertexKind::NvSwitch) group.push_back(id), placed.insert(id);
        // Numeric order: nvswitch2 before nvswitch10.
        std::sort(group.begin(), group.end(), [](const std::string& a, const std::string& b) {
            return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
        groups.push_back(group);
    }
    if (groups.size() < 2) return static_cast<int>(groups.size());
    if (!graph.find(kFabricId))
        graph.add_vertex({.id = kFabricId, .kind = VertexKind::NvSwitchFabric,
                          .name = "NVSwitch fabric (trunks between switches not shown)"});
    std::string described;
    for (const auto& group : groups) {
        described += (described.empty() ? "" : "; ") + describe_group(group);
        for (const auto& id : group)
            graph.add_edge({.a = id, .b = kFabricId, .kind = EdgeKind::NvLink, .internal = true,
                            .source = "assumed: one fabric"});
    }
    graph.notes.push_back("NVSwitch groups " + described + " are shown without the trunks between them: taken as one fabric");
    return static_cast<int>(groups.size());
}

}  // namespace hwcomm
