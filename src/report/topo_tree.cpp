#include "report/topo_tree.hpp"

#include <set>
#include <string>

#include "report/topo_format.hpp"

namespace hwcomm {

namespace {

class TreePrinter {
public:
    TreePrinter(const Graph& graph, std::ostream& out) : graph_(graph), out_(out) {}

    void print() {
        out_ << "Machine";
        if (auto it = graph_.provenance.find("source"); it != graph_.provenance.end()) out_ << " (" << it->second << ")";
        out_ << "\n";
        for (const Vertex* p : graph_.of_kind(VertexKind::Package)) {
            line(1, *p, "");
            for (const auto& numa : members(p->id, VertexKind::NumaNode)) numa_node(numa, 2);
        }
        // NUMA nodes and host bridges no package / NUMA node holds (CPU-less memory, VMs).
        for (const Vertex* n : graph_.of_kind(VertexKind::NumaNode))
            if (!shown_.count(n->id)) numa_node(n->id, 1);
        for (const Vertex* hb : graph_.of_kind(VertexKind::HostBridge))
            if (!shown_.count(hb->id)) io_subtree(hb->id, 1, "");
        for (VertexKind kind : {VertexKind::NvSwitch, VertexKind::NvSwitchFabric})
            for (const Vertex* s : graph_.of_kind(kind))
                if (!shown_.count(s->id)) line(1, *s, "");
        links(EdgeKind::NvLink, "NVLink");
        links(EdgeKind::Smp, "SMP interconnect");
        if (!graph_.notes.empty()) {
            out_ << "Notes:\n";
            for (const auto& n : graph_.notes) out_ << "  " << n << "\n";
        }
    }

private:
    const Graph& graph_;
    std::ostream& out_;
    std::set<std::string> shown_;

    std::vector<std::string> members(const std::string& id, VertexKind kind) const {
        std::vector<std::string> out;
        for (const Edge* e : graph_.edges_of(id))
            if (e->kind == EdgeKind::Membership && e->a == id && graph_.find(e->b)->kind == kind) out.push_back(e->b);
        return out;
    }

    void line(int depth, const Vertex& v, const std::string& link) {
        shown_.insert(v.id);
        out_ << std::string(static_cast<std::size_t>(depth) * 2, ' ') << v.id << "  " << describe_vertex(v);
        if (!link.empty()) out_ << "  <- " << link;
        out_ << "\n";
    }

    void numa_node(const std::string& id, int depth) {
        if (shown_.count(id)) return;
        line(depth, *graph_.find(id), "");
        for (const auto& hb : members(id, VertexKind::HostBridge))
            if (!shown_.count(hb)) io_subtree(hb, depth + 1, "");
    }

    void io_subtree(const std::string& id, int depth, const std::string& link) {
        line(depth, *graph_.find(id), link);
        for (const Edge* e : graph_.edges_of(id))
            if ((e->kind == EdgeKind::Pcie || e->kind == EdgeKind::Attach) && e->a == id && !shown_.count(e->b))
                io_subtree(e->b, depth + 1, describe_edge(*e));
    }

    void links(EdgeKind kind, const char* title) {
        bool any = false;
        for (const Edge& e : graph_.edges()) {
            if (e.kind != kind) continue;
            if (!any) out_ << title << ":\n";
            any = true;
            out_ << "  " << e.a << " -- " << e.b << "  " << describe_edge(e) << (kind == EdgeKind::NvLink ? " per direction" : "") << "\n";
        }
    }
};

}  // namespace

void print_topo_tree(const Graph& graph, std::ostream& out) { TreePrinter(graph, out).print(); }

}  // namespace hwcomm
