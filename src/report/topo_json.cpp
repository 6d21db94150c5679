#include "report/topo_json.hpp"

#include "classes/link_classes.hpp"
#include "core/graph_json.hpp"
#include "core/paths.hpp"
#include "report/topo_matrix.hpp"

namespace hwcomm {

using nlohmann::json;

nlohmann::json topo_to_json(const Graph& graph) {
    json doc = graph_to_json(graph);
    const TopoMatrix m = build_topo_matrix(graph);
    json rows = json::array();
    for (std::size_t r = 0; r < m.labels.size(); ++r) {
        json row{{"label", m.labels[r]}, {"id", m.ids[r]}, {"cells", m.cells[r]}};
        if (r < m.gpu_count) {
            row["cpu_affinity"] = m.cpu_affinity[r];
            row["numa_affinity"] = m.numa_affinity[r];
            row["gpu_numa_id"] = m.gpu_numa_id[r];
        }
        rows.push_back(row);
    }
    doc["matrix"] = {{"labels", m.labels}, {"rows", rows}};

    // Endpoints whose pairs are worth a path: GPUs and NICs of the matrix, NUMA nodes.
    std::vector<std::string> endpoints = m.ids;
    for (const Vertex* n : graph.of_kind(VertexKind::NumaNode)) endpoints.push_back(n->id);
    json paths = json::array();
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        for (std::size_t j = i + 1; j < endpoints.size(); ++j) {
            const auto path = find_path(graph, endpoints[i], endpoints[j]);
            json p{{"a", endpoints[i]}, {"b", endpoints[j]},
                   {"class", classify_path(graph, endpoints[i], endpoints[j]).label()}};
            if (path) {
                p["vertices"] = path->vertices;
                p["bottleneck_gbps_per_direction"] =
                    path->bottleneck_gbps > 0 ? json(path->bottleneck_gbps) : json(nullptr);
                if (path->unknown_edge) {
                    const Edge& e = graph.edges()[*path->unknown_edge];
                    p["unknown_rate_link"] = {e.a, e.b};
                }
                if (path->crosses_smp) p["smp_rate_not_counted"] = true;
            }
            paths.push_back(p);
        }
    }
    doc["paths"] = paths;
    doc["link_classes"] = class_map_to_json(classify(graph, topology_members(graph)));
    return doc;
}

}  // namespace hwcomm
