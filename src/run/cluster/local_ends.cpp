#include "run/cluster/local_ends.hpp"

#include "core/paths.hpp"

namespace hwcomm {

namespace {

const Vertex* first_nic(const Graph& graph) {
    for (const Vertex* v : graph.of_kind(VertexKind::NetworkInterface)) {
        const std::string& n = v->name;
        if (n == "lo" || n.rfind("docker", 0) == 0 || n.rfind("veth", 0) == 0 || n.rfind("virbr", 0) == 0) continue;
        return v;
    }
    return nullptr;
}

}  // namespace

LocalEnds choose_local_ends(const Graph& graph, const std::string& node, int gpu_ordinal) {
    LocalEnds e;
    e.node = node;
    const auto numas = graph.of_kind(VertexKind::NumaNode);
    const Vertex* near = numas.empty() ? nullptr : numas.front();
    if (const Vertex* nic = first_nic(graph)) {
        e.nic = nic->id;
        for (const std::string& id : numa_nodes_of(graph, nic->id))
            if (const Vertex* v = graph.find(id); v && v->kind == VertexKind::NumaNode) {
                near = v;
                break;
            }
    }
    if (near) {
        e.near_numa = near->os_index;
        e.near_numa_id = near->id;
    }
    for (const Vertex* v : numas)
        if (v != near) {
            e.far_numa = v->os_index;
            e.far_numa_id = v->id;
            break;
        }
    if (gpu_ordinal >= 0)
        for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
            if (v->gpu && v->gpu->cuda_ordinal == gpu_ordinal) {
                e.gpu_ordinal = gpu_ordinal;
                e.gpu_id = v->id;
            }
    return e;
}

nlohmann::json local_ends_to_json(const LocalEnds& e) {
    return {{"node", e.node},           {"nic", e.nic},           {"near_numa", e.near_numa},
            {"near_numa_id", e.near_numa_id}, {"far_numa", e.far_numa}, {"far_numa_id", e.far_numa_id},
            {"gpu_ordinal", e.gpu_ordinal},   {"gpu_id", e.gpu_id}};
}

LocalEnds local_ends_from_json(const nlohmann::json& j) {
    LocalEnds e;
    e.node = j.at("node").get<std::string>();
    e.nic = j.at("nic").get<std::string>();
    e.near_numa = j.at("near_numa").get<int>();
    e.near_numa_id = j.at("near_numa_id").get<std::string>();
    e.far_numa = j.at("far_numa").get<int>();
    e.far_numa_id = j.at("far_numa_id").get<std::string>();
    e.gpu_ordinal = j.at("gpu_ordinal").get<int>();
    e.gpu_id = j.at("gpu_id").get<std::string>();
    return e;
}

}  // namespace hwcomm
