#include "report/topo_cluster.hpp"

#include <cstdio>
#include <optional>
#include <sstream>

#include "analyze/cluster.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "core/paths.hpp"

namespace hwcomm {

using nlohmann::json;

namespace {

struct NicView {
    std::string id, name;
    std::vector<std::string> numa;  // NUMA nodes local to the NIC
    bool used = false;              // the NIC the MPI traffic used
    bool in_graph = false;
};

struct NodeView {
    const ClusterNodeInfo* node = nullptr;
    std::optional<Graph> graph;     // nullopt: no topology (or it does not parse)
    std::size_t gpus = 0, numa_nodes = 0;
    std::vector<NicView> nics;
};

std::optional<Graph> parse_graph(const json& topology) {
    if (!topology.is_object() || !topology.contains("vertices")) return std::nullopt;
    try {
        return graph_from_json(topology);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// The NIC's vertex: its id as listed, or "net:<name>" when the list names the interface.
const Vertex* find_nic(const Graph& g, const std::string& id) {
    if (const Vertex* v = g.find(id)) return v;
    return g.find("net:" + id);
}

NodeView view_of(const ClusterNodeInfo& n) {
    NodeView v;
    v.node = &n;
    v.graph = parse_graph(n.topology);
    if (v.graph) {
        v.gpus = v.graph->of_kind(VertexKind::Gpu).size();
        v.numa_nodes = v.graph->of_kind(VertexKind::NumaNode).size();
    }
    for (const std::string& id : n.nics) {
        NicView nic{id, id, {}, false, false};
        if (const Vertex* vx = v.graph ? find_nic(*v.graph, id) : nullptr) {
            nic.in_graph = true;
            nic.name = vx->name;
            nic.numa = numa_nodes_of(*v.graph, vx->id);
            nic.used = !n.nic_used.empty() && (n.nic_used == id || n.nic_used == vx->id || n.nic_used == vx->name);
        } else {
            nic.used = !n.nic_used.empty() && n.nic_used == id;
        }
        v.nics.push_back(std::move(nic));
    }
    return v;
}

std::string gbps_text(double gbps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB/s", gbps);
    return buf;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

std::string mpi_line(const ClusterSection& c) {
    std::string out = std::to_string(c.nodes.size()) + " nodes";
    if (!c.mpi.library.empty()) out += ", " + c.mpi.library;
    if (c.mpi.cuda_aware) out += *c.mpi.cuda_aware ? " (CUDA-aware)" : " (not CUDA-aware)";
    if (c.shared_host) out += "; ranks shared a host: inter-node numbers are shared-memory transport, not a network";
    return out;
}

void print_text(const ResultsFile& file, const ClusterSection& c, std::ostream& out) {
    out << "cluster: " << mpi_line(c) << "\n";
    for (const ClusterNodeInfo& n : c.nodes) {
        const NodeView v = view_of(n);
        out << n.name << "  rank " << (n.rank < 0 ? std::string("?") : std::to_string(n.rank)) << "  host "
            << (n.hostname.empty() ? "?" : n.hostname) << "  " << n.status;
        if (n.status != "ok") out << ": " << n.error;
        if (v.graph) out << "  (" << v.gpus << " GPUs, " << v.numa_nodes << " NUMA nodes)";
        else out << "  (no topology)";
        out << "\n";
        if (!n.shares_host_with.empty()) out << "  shares its host with " << joined(n.shares_host_with) << "\n";
        if (v.nics.empty()) out << "  no NIC listed\n";
        for (const NicView& nic : v.nics) {
            out << "  NIC " << nic.id;
            if (nic.name != nic.id) out << " (" << nic.name << ")";
            if (!nic.numa.empty()) out << "  near " << joined(nic.numa);
            if (!nic.in_graph && v.graph) out << "  not in its graph";
            if (nic.used) out << "  used by MPI";
            out << "\n";
        }
        if (n.nic_used.empty() && n.status == "ok") out << "  NIC used by MPI: unknown\n";
    }
    const auto links = analyze::cluster_links(file, c);
    out << "\ninter-node links measured (best large-transfer bandwidth):\n";
    if (links.empty()) out << "  none\n";
    for (const analyze::ClusterLink& l : links) {
        out << "  " << l.a << " -- " << l.b << "  "
            << (l.best_gbps > 0 ? gbps_text(l.best_gbps) + "  " + l.best_key : std::string("no usable measurement"));
        if (l.error_records) out << "  " << l.error_records << " of " << l.records << " records failed";
        if (l.shared_host) out << "  shared host: shared memory, not a network";
        else if (!l.transport.empty()) out << "  (" << l.transport << ")";
        out << "\n";
    }
}

std::string dot_quoted(const std::string& text) {
    std::string out(1, '"');
    for (char ch : text) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += ch;
    }
    out += '"';
    return out;
}

void print_dot(const ResultsFile& file, const ClusterSection& c, std::ostream& out) {
    out << "graph cluster {\n  node [shape=box];\n";
    for (const ClusterNodeInfo& n : c.nodes) {
        const NodeView v = view_of(n);
        // Lines joined by DOT's "\n" after quoting, so the escape survives.
        std::string label = dot_quoted(n.name) + " + \"\\n\" + " + dot_quoted(n.hostname);
        for (const NicView& nic : v.nics) label += " + \"\\n\" + " + dot_quoted(nic.name + (nic.used ? " (MPI)" : ""));
        out << "  " << dot_quoted(n.name) << " [label=" << label;
        if (n.status != "ok") out << ", style=dashed, color=red";
        out << "];\n";
    }
    for (const analyze::ClusterLink& l : analyze::cluster_links(file, c)) {
        out << "  " << dot_quoted(l.a) << " -- " << dot_quoted(l.b) << " [label="
            << dot_quoted((l.best_gbps > 0 ? gbps_text(l.best_gbps) : "failed") + (l.shared_host ? " (shared host)" : ""));
        if (l.best_gbps <= 0) out << ", style=dashed, color=red";
        out << "];\n";
    }
    out << "}\n";
}

}  // namespace

json cluster_topology_to_json(const ResultsFile& file, const ClusterSection& c) {
    json nodes = json::array();
    for (const ClusterNodeInfo& n : c.nodes) {
        const NodeView v = view_of(n);
        json nics = json::array();
        for (const NicView& nic : v.nics)
            nics.push_back({{"id", nic.id}, {"name", nic.name}, {"numa", nic.numa}, {"used", nic.used}});
        json j = {{"name", n.name},
                  {"rank", n.rank < 0 ? json(nullptr) : json(n.rank)},
                  {"hostname", n.hostname},
                  {"status", n.status},
                  {"has_topology", v.graph.has_value()},
                  {"gpus", v.gpus},
                  {"numa_nodes", v.numa_nodes},
                  {"nics", std::move(nics)},
                  {"nic_used", n.nic_used.empty() ? json(nullptr) : json(n.nic_used)},
                  {"shares_host_with", n.shares_host_with}};
        if (n.status != "ok") j["error"] = n.error;
        nodes.push_back(std::move(j));
    }
    json links = json::array();
    for (const analyze::ClusterLink& l : analyze::cluster_links(file, c))
        links.push_back(analyze::cluster_link_to_json(l));
    return {{"schema", kClusterTopologySchema},
            {"mpi",
             {{"library", c.mpi.library},
              {"version", c.mpi.version},
              {"cuda_aware", c.mpi.cuda_aware ? json(*c.mpi.cuda_aware) : json(nullptr)}}},
            {"shared_host", c.shared_host},
            {"nodes", std::move(nodes)},
            {"links", std::move(links)}};
}

std::string render_cluster_topology(const ResultsFile& file, const ClusterSection& cluster, TopoFormat format) {
    std::ostringstream out;
    switch (format) {
        case TopoFormat::Tree: print_text(file, cluster, out); break;
        case TopoFormat::Json: out << cluster_topology_to_json(file, cluster).dump(2) << "\n"; break;
        case TopoFormat::Dot: print_dot(file, cluster, out); break;
        case TopoFormat::Matrix:
            throw UsageError("--matrix shows one node: add --node (" + joined(cluster.node_names()) + ")");
    }
    return out.str();
}

Graph cluster_node_graph(const ClusterSection& cluster, const std::string& name) {
    const ClusterNodeInfo* n = cluster.find(name);
    if (!n) throw UsageError("no node '" + name + "' in this cluster file (nodes: " + joined(cluster.node_names()) + ")");
    if (auto g = parse_graph(n->topology)) return std::move(*g);
    throw UsageError("node '" + name + "' holds no readable topology" +
                     (n->status == "ok" ? std::string() : " (its rank failed: " + n->error + ")"));
}

}  // namespace hwcomm
