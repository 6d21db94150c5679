#include "report/topo_dot.hpp"

#include <string>

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

std::string quoted(const std::string& text) { return "\"" + escaped(text) + "\""; }

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

}  // namespace

void print_topo_dot(const Graph& graph, std::ostream& out) {
    out << "graph hwcomm {\n  rankdir=TB;\n  node [fontsize=10];\n  edge [fontsize=9];\n";
    for (const Vertex& v : graph.vertices())
        out << "  " << quoted(v.id) << " [shape=" << shape_of(v.kind) << ", label=\"" << escaped(v.id) << "\\n" << escaped(v.name) << "\""
            << "];\n";
    for (const Edge& e : graph.edges()) {
        out << "  " << quoted(e.a) << " -- " << quoted(e.b) << " [label=" << quoted(describe_edge(e));
        if (e.kind == EdgeKind::NvLink) out << ", penwidth=3, color=\"#76b900\"";
        if (e.kind == EdgeKind::Smp) out << ", style=dashed";
        if (e.kind == EdgeKind::Membership || e.kind == EdgeKind::Attach) out << ", style=dotted";
        out << "];\n";
    }
    out << "}\n";
}

}  // namespace hwcomm
