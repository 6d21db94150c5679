#include "report/topo_dot.hpp"

#include <map>
#include <string>
#include <vector>

#include "core/paths.hpp"
#include "report/topo_format.hpp"

namespace hwcomm {

namespace {

std::string escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string quoted(const std::string& text) {
    std::string out(1, '"');  // appended, not "\"" + ...: GCC 12 warns falsely (-Wrestrict) on that
    out += escaped(text);
    out += '"';
    return out;
}

const char* shape_of(VertexKind kind) {
    switch (kind) {
        case VertexKind::Package: return "box3d";
        case VertexKind::NumaNode: return "folder";
        case VertexKind::Gpu: return "box";
        case VertexKind::NvSwitch:
        case VertexKind::NvSwitchFabric: return "hexagon";
        case VertexKind::HostBridge:
        case VertexKind::PciBridge: return "diamond";
        default: return "ellipse";
    }
}

std::string node_line(const Vertex& v) {
    return "  " + quoted(v.id) + " [shape=" + shape_of(v.kind) + ", label=\"" + escaped(v.id) + "\\n" + escaped(v.name) +
           "\"];\n";
}

// The package a vertex belongs to ("" for none or several): its own, or the
// package of the NUMA node local to it.
std::string package_of(const Graph& graph, const Vertex& v) {
    if (v.kind == VertexKind::Package) return v.id;
    std::string package;
    for (const auto& numa : numa_nodes_of(graph, v.id))
        for (const Edge* e : graph.edges_of(numa))
            if (e->kind == EdgeKind::Membership && e->b == numa && graph.find(e->a)->kind == VertexKind::Package) {
                if (!package.empty() && package != e->a) return "";
                package = e->a;
            }
    return package;
}

}  // namespace

void print_topo_dot(const Graph& graph, std::ostream& out) {
    out << "graph hwcomm {\n  rankdir=TB;\n  node [fontsize=10];\n  edge [fontsize=9];\n";
    // One cluster per package: its NUMA nodes and everything below their host
    // bridges, so that a 16-GPU graph falls into its sockets/baseboards.
    std::map<std::string, std::vector<const Vertex*>> clusters;
    std::vector<const Vertex*> loose;
    for (const Vertex& v : graph.vertices()) {
        std::string package = package_of(graph, v);
        if (package.empty()) loose.push_back(&v);
        else clusters[package].push_back(&v);
    }
    for (const auto& [package, members] : clusters) {
        out << "  subgraph " << quoted("cluster_" + package) << " {\n    label=" << quoted(graph.find(package)->name)
            << ";\n    style=rounded;\n";
        for (const Vertex* v : members) out << "  " << node_line(*v);
        out << "  }\n";
    }
    for (const Vertex* v : loose) out << node_line(*v);
    for (const Edge& e : graph.edges()) {
        out << "  " << quoted(e.a) << " -- " << quoted(e.b) << " [label=" << quoted(describe_edge(e, EdgeText::State));
        if (e.kind == EdgeKind::NvLink) out << ", penwidth=3, color=\"#76b900\"";
        if (e.kind == EdgeKind::Xgmi) out << ", penwidth=3, color=\"#ed1c24\"";
        if (e.kind == EdgeKind::Smp || e.internal) out << ", style=dashed";
        if (e.kind == EdgeKind::Membership || e.kind == EdgeKind::Attach) out << ", style=dotted";
        out << "];\n";
    }
    out << "}\n";
}

}  // namespace hwcomm
