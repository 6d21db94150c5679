#include "report/topo_render.hpp"

#include <sstream>

#include "classes/link_classes.hpp"
#include "core/error.hpp"
#include "core/paths.hpp"
#include "report/topo_dot.hpp"
#include "report/topo_classes.hpp"
#include "report/topo_format.hpp"
#include "report/topo_json.hpp"
#include "report/topo_matrix.hpp"
#include "report/topo_tree.hpp"

namespace hwcomm {

namespace {

void print_path(const Graph& graph, const std::string& from, const std::string& to, std::ostream& out) {
    const auto cls = classify_path(graph, from, to).label();
    const auto path = find_path(graph, from, to);
    if (!path) {
        out << from << " -> " << to << "  " << cls << "  not connected\n";
        return;
    }
    out << from << " -> " << to << "  " << cls << "  bottleneck " << describe_bottleneck(graph, *path) << "\n";
    if (path->crosses_smp) out << "    (the SMP interconnect's rate is known from no source: not counted)\n";
    if (path->nvlinks > 0) out << "    (" << path->nvlinks << " bonded NVLinks used at once; one route shown)\n";
    for (std::size_t i = 0; i < path->edges.size(); ++i)
        out << "    " << path->vertices[i] << " -- " << path->vertices[i + 1] << "  "
            << describe_edge(graph.edges()[path->edges[i]], EdgeText::State) << "\n";
}

void print_device(const Graph& graph, const Vertex& v, std::ostream& out) {
    out << v.id << "  " << to_string(v.kind) << "  " << describe_vertex(v) << "\n";
    for (const auto& [key, value] : v.attrs) out << "  " << key << ": " << value << "\n";
    out << "Links:\n";
    for (const Edge* e : graph.edges_of(v.id))
        out << "  " << (e->a == v.id ? e->b : e->a) << "  " << describe_edge(*e, EdgeText::State) << "\n";
    out << "Paths:\n";
    for (VertexKind kind : {VertexKind::Gpu, VertexKind::NumaNode, VertexKind::NetworkInterface})
        for (const Vertex* other : graph.of_kind(kind))
            if (other->id != v.id) print_path(graph, v.id, other->id, out);
}

}  // namespace

const Vertex& require_device(const Graph& graph, const std::string& id) {
    if (const Vertex* v = graph.find(id)) return *v;
    std::string gpus;
    for (const Vertex* g : graph.of_kind(VertexKind::Gpu)) gpus += (gpus.empty() ? "" : ", ") + g->id;
    throw UsageError("no device '" + id + "' in this topology (GPUs: " + (gpus.empty() ? "none" : gpus) + ")");
}

std::string render_topology(const Graph& graph, const TopoView& view) {
    std::ostringstream out;
    if (!view.path.empty()) {
        if (view.path.size() != 2) throw UsageError("--path takes two device ids");
        require_device(graph, view.path[0]);
        require_device(graph, view.path[1]);
        print_path(graph, view.path[0], view.path[1], out);
        return out.str();
    }
    if (!view.device.empty()) {
        print_device(graph, require_device(graph, view.device), out);
        return out.str();
    }
    switch (view.format) {
        case TopoFormat::Tree:
            print_topo_tree(graph, out, view.all);
            print_link_classes(classify(graph, topology_members(graph)), out);
            break;
        case TopoFormat::Json: out << topo_to_json(graph).dump(2) << "\n"; break;
        case TopoFormat::Dot: print_topo_dot(graph, out); break;
        case TopoFormat::Matrix: print_topo_matrix(build_topo_matrix(graph), out); break;
    }
    return out.str();
}

}  // namespace hwcomm
