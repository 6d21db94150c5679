#include "report/topo_tree.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "report/topo_format.hpp"

namespace hwcomm {

namespace {

class TreePrinter {
public:
    TreePrinter(const Graph& graph, std::ostream& out, bool all) : graph_(graph), out_(out), all_(all) {}

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
            if (!shown_.count(hb->id) && visible(hb->id)) io_subtree(hb->id, 1, "");
        // Disks and NICs below no PCI function (virtio, platform controllers).
        for (VertexKind kind : {VertexKind::BlockDevice, VertexKind::NetworkInterface})
            for (const Vertex* d : graph_.of_kind(kind))
                if (!shown_.count(d->id)) line(1, *d, "");
        for (VertexKind kind : {VertexKind::NvSwitch, VertexKind::NvSwitchFabric})
            for (const Vertex* s : graph_.of_kind(kind))
                if (!shown_.count(s->id) && visible(s->id)) line(1, *s, "");
        if (hidden_ > 0) out_ << "  (" << hidden_ << " PCI functions and bridges that carry nothing hidden; --all shows them)\n";
        nvlinks();
        xgmi();
        flat_links(EdgeKind::Smp, "SMP interconnect", "");
        if (!graph_.notes.empty()) {
            out_ << "Notes:\n";
            for (const auto& n : graph_.notes) out_ << "  " << n << "\n";
        }
    }

private:
    const Graph& graph_;
    std::ostream& out_;
    bool all_;
    std::set<std::string> shown_;
    std::map<std::string, bool> visible_;
    int hidden_ = 0;

    std::vector<std::string> members(const std::string& id, VertexKind kind) const {
        std::vector<std::string> out;
        for (const Edge* e : graph_.edges_of(id))
            if (e->kind == EdgeKind::Membership && e->a == id && graph_.find(e->b)->kind == kind) out.push_back(e->b);
        return out;
    }

    std::vector<const Edge*> io_children(const std::string& id) const {
        std::vector<const Edge*> out;
        for (const Edge* e : graph_.edges_of(id))
            if ((e->kind == EdgeKind::Pcie || e->kind == EdgeKind::Attach) && e->a == id) out.push_back(e);
        return out;
    }

    // Plain PCI functions and bridges are worth a line when something below
    // them is: a GPU, switch, disk, NIC, or a function with an OS device.
    bool visible(const std::string& id) {
        if (auto it = visible_.find(id); it != visible_.end()) return it->second;
        const Vertex& v = *graph_.find(id);
        bool show = all_ || (v.kind != VertexKind::PciDevice && v.kind != VertexKind::PciBridge &&
                             v.kind != VertexKind::HostBridge) ||
                    v.attrs.count("os_devices");
        for (const Edge* e : io_children(id)) show = visible(e->b) || show;  // every child decided once
        return visible_[id] = show;
    }

    void line(int depth, const Vertex& v, const std::string& link) {
        shown_.insert(v.id);
        out_ << std::string(static_cast<std::size_t>(depth) * 2, ' ') << v.id << "  " << describe_vertex(v, true);
        if (!link.empty()) out_ << "  <- " << link;
        out_ << "\n";
    }

    void numa_node(const std::string& id, int depth) {
        if (shown_.count(id)) return;
        line(depth, *graph_.find(id), "");
        for (const auto& hb : members(id, VertexKind::HostBridge))
            if (!shown_.count(hb) && visible(hb)) io_subtree(hb, depth + 1, "");
    }

    void io_subtree(const std::string& id, int depth, const std::string& link) {
        line(depth, *graph_.find(id), link);
        for (const Edge* e : io_children(id)) {
            if (shown_.count(e->b)) continue;
            if (visible(e->b)) io_subtree(e->b, depth + 1, describe_edge(*e, EdgeText::State));
            else hide(e->b);
        }
    }

    void hide(const std::string& id) {
        if (!shown_.insert(id).second) return;
        ++hidden_;
        for (const Edge* e : io_children(id)) hide(e->b);
    }

    // Returns whether it wrote anything (and so the title).
    bool flat_links(EdgeKind kind, const char* title, const char* suffix, bool skip_switches = false) {
        bool any = false;
        for (const Edge& e : graph_.edges()) {
            if (e.kind != kind) continue;
            if (skip_switches && (is_nvswitch(graph_.find(e.a)->kind) || is_nvswitch(graph_.find(e.b)->kind))) continue;
            if (!any) out_ << title << ":\n";
            any = true;
            out_ << "  " << e.a << " -- " << e.b << "  " << describe_edge(e, EdgeText::State) << suffix << "\n";
        }
        return any;
    }

    // "gpu0: NVLink 2.0 x6 -> nvswitch0..5, 150.00 GB/s per direction": one
    // line per GPU for its links into switches; direct bonds one line each.
    void nvlinks() {
        bool titled = flat_links(EdgeKind::NvLink, "NVLink", " per direction", true);
        auto title = [&] {
            if (!titled) out_ << "NVLink:\n";
            titled = true;
        };
        std::vector<std::string> trunked;
        std::string fabric;
        for (const Vertex& v : graph_.vertices()) {
            if (v.kind != VertexKind::Gpu) continue;
            std::vector<std::string> targets;
            int links = 0;
            double gbps = 0;
            std::string version;
            for (const Edge* e : graph_.edges_of(v.id)) {
                if (e->kind != EdgeKind::NvLink) continue;
                const std::string other = e->a == v.id ? e->b : e->a;
                if (!is_nvswitch(graph_.find(other)->kind)) continue;
                targets.push_back(other);
                links += e->nvlink ? e->nvlink->links : 1;
                gbps += e->gbps_per_direction;
                if (e->nvlink && version.empty()) version = e->nvlink->version;
            }
            if (targets.empty()) continue;
            title();
            out_ << "  " << v.id << ": NVLink" << (version.empty() ? "" : " " + version) << " x" << links << " -> "
                 << compress_ids(targets) << ", " << format_rate(gbps) << " per direction\n";
        }
        for (const Edge& e : graph_.edges())
            if (e.kind == EdgeKind::NvLink && e.internal) trunked.push_back(e.a), fabric = e.b;
        if (!trunked.empty()) {
            title();
            out_ << "  " << compress_ids(trunked) << " -- " << fabric << "  trunks no source shows (assumed one fabric)\n";
        }
    }

    void xgmi() {
        bool any = false;
        for (const Vertex& v : graph_.vertices()) {
            std::vector<std::string> peers;
            double gbps = 0;
            for (const Edge* e : graph_.edges_of(v.id))
                if (e->kind == EdgeKind::Xgmi && e->a == v.id) peers.push_back(e->b), gbps = e->gbps_per_direction;
            if (peers.empty()) continue;
            if (!any) out_ << "XGMI:\n";
            any = true;
            out_ << "  " << v.id << " -> " << compress_ids(peers) << ", " << format_rate(gbps) << " per direction each\n";
        }
    }
};

}  // namespace

void print_topo_tree(const Graph& graph, std::ostream& out, bool all) { TreePrinter(graph, out, all).print(); }

}  // namespace hwcomm
