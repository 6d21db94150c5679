// The cluster view as JSON (the "cluster" section of hwcomm.analyze/v1),
// text and Markdown.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "analyze/cluster.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::analyze {

nlohmann::json cluster_link_to_json(const ClusterLink& l) {
    using nlohmann::json;
    return {{"a", l.a},
            {"b", l.b},
            {"best_gbps", l.best_gbps > 0 ? json(l.best_gbps) : json(nullptr)},
            {"best_key", l.best_key},
            {"records", l.records},
            {"error_records", l.error_records},
            {"shared_host", l.shared_host},
            {"transport", l.transport.empty() ? json(nullptr) : json(l.transport)}};
}

using nlohmann::json;

namespace {

std::string fraction_percent(double fraction) { return format_fixed(fraction * 100, 1) + "%"; }

std::string mpi_text(const ClusterMpi& m) {
    if (m.version.empty() && m.library.empty()) return "MPI library not recorded";
    std::string out = m.version.empty() ? m.library : "MPI library " + m.version;
    if (!m.standard.empty()) out += " (MPI " + m.standard + ")";
    out += !m.cuda_aware ? ", CUDA-awareness unknown" : *m.cuda_aware ? ", CUDA-aware" : ", not CUDA-aware";
    return out;
}

std::size_t ok_nodes(const ClusterAnalysis& a) {
    std::size_t n = 0;
    for (const ClusterNodeState& s : a.nodes) n += s.status == "ok";
    return n;
}

json deviation_json(const ClusterDeviation& d, bool pair) {
    json j = {{pair ? "pair" : "node", d.who}, {"method", d.path.method}, {"src", d.path.src},
              {"dst", d.path.dst},             {"params", d.path.params}, {"key", d.key},
              {"large_gbps", d.gbps},          {"median_gbps", d.median_gbps},
              {"below_fraction", d.below},     {"peers", d.peers}};
    return j;
}

std::string deviation_line(const ClusterDeviation& d) {
    return "  " + d.who + "  " + d.path.label() + ": " + format_fixed(d.gbps, 2) + " GB/s, median of " +
           std::to_string(d.peers) + " " + format_fixed(d.median_gbps, 2) + " GB/s, " + fraction_percent(d.below) + " below\n";
}

}  // namespace

json cluster_analysis_to_json(const ClusterAnalysis& a) {
    json nodes = json::array();
    for (const ClusterNodeState& s : a.nodes) {
        json j = {{"name", s.name}, {"status", s.status}, {"records", s.records}, {"error_records", s.error_records}};
        if (s.status != "ok") j["error"] = s.error;
        nodes.push_back(std::move(j));
    }
    json links = json::array();
    for (const ClusterLink& l : a.links)
        links.push_back(cluster_link_to_json(l));
    json node_flags = json::array(), pair_flags = json::array();
    for (const ClusterDeviation& d : a.node_flags) node_flags.push_back(deviation_json(d, false));
    for (const ClusterDeviation& d : a.pair_flags) pair_flags.push_back(deviation_json(d, true));
    const ClusterMpi& m = a.cluster.mpi;
    return {{"source", a.source},
            {"threshold", a.threshold},
            {"min_peers", kClusterMinPeers},
            {"mpi",
             {{"library", m.library},
              {"version", m.version},
              {"standard", m.standard},
              {"cuda_aware", m.cuda_aware ? json(*m.cuda_aware) : json(nullptr)}}},
            {"shared_host", a.cluster.shared_host},
            {"nodes", std::move(nodes)},
            {"links", std::move(links)},
            {"node_paths_compared", a.node_paths_compared},
            {"pair_paths_compared", a.pair_paths_compared},
            {"node_flags", std::move(node_flags)},
            {"pair_flags", std::move(pair_flags)},
            {"notes", a.notes}};
}

std::string format_cluster_analysis_text(const ClusterAnalysis& a) {
    std::ostringstream out;
    out << "cluster " << a.source << ": " << a.nodes.size() << " nodes (" << ok_nodes(a) << " ok), "
        << mpi_text(a.cluster.mpi) << "\n";
    out << "rule: each node's large-transfer bandwidth on a path measured by >= " << kClusterMinPeers
        << " nodes (pairs) against their median; flagged when more than " << fraction_percent(a.threshold) << " below\n";
    out << "\nnodes that differ from their peers (" << a.node_paths_compared << " paths compared):\n";
    if (a.node_flags.empty()) out << "  none\n";
    for (const ClusterDeviation& d : a.node_flags) out << deviation_line(d);
    out << "\ninter-node pairs below the pairs' median (" << a.pair_paths_compared << " paths compared):\n";
    if (a.pair_flags.empty()) out << "  none\n";
    for (const ClusterDeviation& d : a.pair_flags) out << deviation_line(d);
    out << "\nnode errors:\n";
    bool any = false;
    for (const ClusterNodeState& s : a.nodes) {
        if (s.status == "ok" && s.error_records == 0) continue;
        any = true;
        out << "  " << s.name << ": " << (s.status == "ok" ? "ok" : "error: " + s.error) << " (" << s.error_records
            << " of " << s.records << " node records failed)\n";
    }
    if (!any) out << "  none\n";
    for (const std::string& n : a.notes) out << "note: " << n << "\n";
    return out.str();
}

std::string format_cluster_analysis_markdown(const ClusterAnalysis& a) {
    std::ostringstream out;
    out << "\n## Cluster: " << a.source << "\n\n" << a.nodes.size() << " nodes (" << ok_nodes(a) << " ok), "
        << mpi_text(a.cluster.mpi) << "; flagged when more than " << fraction_percent(a.threshold)
        << " below the median of >= " << kClusterMinPeers << " peers.\n\n";
    out << "| node or pair | path | GB/s | median GB/s | below |\n| --- | --- | --- | --- | --- |\n";
    for (const auto* flags : {&a.node_flags, &a.pair_flags})
        for (const ClusterDeviation& d : *flags)
            out << "| " << d.who << " | " << d.path.label() << " | " << format_fixed(d.gbps, 2) << " | "
                << format_fixed(d.median_gbps, 2) << " | " << fraction_percent(d.below) << " |\n";
    if (a.node_flags.empty() && a.pair_flags.empty()) out << "| none | | | | |\n";
    for (const ClusterNodeState& s : a.nodes)
        if (s.status != "ok") out << "\n- node " << s.name << ": error: " << s.error << "\n";
    for (const std::string& n : a.notes) out << "\nNote: " << n << "\n";
    return out.str();
}

}  // namespace hwcomm::analyze
