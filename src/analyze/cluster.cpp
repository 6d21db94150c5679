// analyze_cluster: group the records of a cluster file by their node-free
// path, compare each node (each pair) with the median of its peers.
#include "analyze/cluster.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "analyze/curve_metrics.hpp"
#include "core/graph_json.hpp"
#include "measure/statistics.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::analyze {

namespace {

// A record seen through the cluster: its nodes, its node-free path, its
// large-transfer bandwidth (nullopt when failed or without a plateau).
struct Placed {
    const Record* record = nullptr;
    std::string src_node, dst_node;
    ClusterPath path;
    std::optional<double> large_gbps;
    bool inter_node() const { return src_node != dst_node; }
};

std::vector<Placed> place_records(const ResultsFile& file, const std::vector<std::string>& names) {
    std::vector<Placed> out;
    const MethodCatalog catalog = catalog_for(file.meta);
    for (const Record& r : file.records) {
        const EndpointId s = split_endpoint_id(r.src, names), d = split_endpoint_id(r.dst, names);
        if (s.node.empty() || d.node.empty()) continue;  // not of a listed node: nothing to compare it with
        Placed p{&r, s.node, d.node, {r.method, s.local, d.local, r.params}, std::nullopt};
        if (r.status == "ok") {
            const CurveMetrics m = curve_metrics(r, catalog.find(r.method), nullptr);
            if (m.large && m.large->gbps > 0) p.large_gbps = m.large->gbps;
        }
        out.push_back(std::move(p));
    }
    return out;
}

bool shares_host(const Record& r) {
    const auto it = r.context.is_object() ? r.context.find("shared_host") : r.context.end();
    return r.context.is_object() && it != r.context.end() && it->is_boolean() && it->get<bool>();
}

std::string path_id(const ClusterPath& p) { return record_key(p.method, p.src, p.dst, p.params); }

// Flags the members of each group (a path measured by >= kClusterMinPeers
// nodes or pairs) below the group's median by more than the threshold.
std::size_t flag_outliers(const std::map<std::string, std::vector<const Placed*>>& groups, double threshold,
                          bool pairs, std::vector<ClusterDeviation>& flags) {
    std::size_t compared = 0;
    for (const auto& [id, members] : groups) {
        if (members.size() < kClusterMinPeers) continue;
        ++compared;
        std::vector<double> values;
        for (const Placed* p : members) values.push_back(*p->large_gbps);
        const double median = median_value(values);
        if (!(median > 0)) continue;
        for (const Placed* p : members) {
            const double below = 1.0 - *p->large_gbps / median;
            if (below <= threshold) continue;
            const std::string who = pairs ? p->src_node + "->" + p->dst_node : p->src_node;
            flags.push_back({who, p->path, p->record->key, *p->large_gbps, median, below, members.size()});
        }
    }
    std::sort(flags.begin(), flags.end(), [](const ClusterDeviation& a, const ClusterDeviation& b) {
        return a.who != b.who ? a.who < b.who : a.key < b.key;
    });
    return compared;
}

}  // namespace

std::string ClusterPath::label() const {
    std::string params_text;
    for (const auto& [k, v] : params) params_text += (params_text.empty() ? "" : ",") + k + "=" + v;
    return method + " " + src + "->" + dst + (params_text.empty() ? "" : " " + params_text);
}

std::map<std::string, Graph> cluster_node_graphs(const ClusterSection& cluster) {
    std::map<std::string, Graph> out;
    for (const ClusterNodeInfo& n : cluster.nodes) {
        if (!n.topology.is_object() || !n.topology.contains("vertices")) continue;
        try {
            out.emplace(n.name, graph_from_json(n.topology));
        } catch (const std::exception&) {  // unreadable: that node's paths have no stated limit
        }
    }
    return out;
}

std::vector<ClusterLink> cluster_links(const ResultsFile& file, const ClusterSection& cluster) {
    const auto names = cluster.node_names();
    const auto rank_of = [&names](const std::string& n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
    std::map<std::pair<std::string, std::string>, ClusterLink> links;
    for (const Placed& p : place_records(file, names)) {
        if (!p.inter_node()) continue;
        const bool ordered = rank_of(p.src_node) < rank_of(p.dst_node);
        const std::string a = ordered ? p.src_node : p.dst_node, b = ordered ? p.dst_node : p.src_node;
        ClusterLink& l = links[{a, b}];
        l.a = a;
        l.b = b;
        ++l.records;
        if (p.record->status != "ok") ++l.error_records;
        const nlohmann::json& ctx = p.record->context;
        l.shared_host = l.shared_host || shares_host(*p.record);
        if (!p.large_gbps) continue;
        // Per direction where there is one: a "bi" record counts the bytes of both directions.
        const auto dir = p.record->params.find("direction");
        const bool per_direction = dir == p.record->params.end() || dir->second != "bi";
        const bool better = per_direction != l.best_per_direction ? per_direction || l.best_key.empty()
                                                                   : *p.large_gbps > l.best_gbps;
        if (!better) continue;
        l.best_per_direction = per_direction;
        l.best_gbps = *p.large_gbps;
        l.best_key = p.record->key;
        const auto t = ctx.is_object() ? ctx.find("mpi_transport") : ctx.end();
        l.transport = ctx.is_object() && t != ctx.end() && t->is_string() ? t->get<std::string>() : "";
    }
    std::vector<ClusterLink> out;
    for (auto& [ab, l] : links) out.push_back(std::move(l));
    std::sort(out.begin(), out.end(), [&rank_of](const ClusterLink& x, const ClusterLink& y) {
        return std::pair(rank_of(x.a), rank_of(x.b)) < std::pair(rank_of(y.a), rank_of(y.b));
    });
    return out;
}

ClusterAnalysis analyze_cluster(const std::string& source, const ResultsFile& file, const ClusterSection& cluster,
                                double threshold) {
    if (!(threshold > 0 && threshold < 1)) throw std::invalid_argument("cluster threshold must be in (0, 1)");
    ClusterAnalysis a;
    a.source = source;
    a.threshold = threshold;
    a.cluster = cluster;
    const auto names = cluster.node_names();
    const std::vector<Placed> placed = place_records(file, names);
    std::map<std::string, std::vector<const Placed*>> node_groups, pair_groups;
    for (const ClusterNodeInfo& n : cluster.nodes) a.nodes.push_back({n.name, n.status, n.error, 0, 0});
    std::size_t unqualified = file.records.size() - placed.size(), same_host = 0;
    for (const Placed& p : placed) {
        if (!p.inter_node()) {
            auto node = std::find_if(a.nodes.begin(), a.nodes.end(),
                                     [&p](const ClusterNodeState& s) { return s.name == p.src_node; });
            ++node->records;
            if (p.record->status != "ok") ++node->error_records;
        }
        if (!p.large_gbps) continue;
        // Two ranks of one host talk through shared memory: no network to find a slow link in.
        if (p.inter_node() && shares_host(*p.record)) {
            ++same_host;
            continue;
        }
        (p.inter_node() ? pair_groups : node_groups)[path_id(p.path)].push_back(&p);
    }
    a.node_paths_compared = flag_outliers(node_groups, threshold, false, a.node_flags);
    a.pair_paths_compared = flag_outliers(pair_groups, threshold, true, a.pair_flags);
    a.links = cluster_links(file, cluster);
    std::size_t few = 0;
    for (const auto* groups : {&node_groups, &pair_groups})
        for (const auto& [id, members] : *groups) few += members.size() < kClusterMinPeers;
    if (few)
        a.notes.push_back(std::to_string(few) + " path(s) measured by fewer than " + std::to_string(kClusterMinPeers) +
                          " nodes or pairs: not compared");
    if (unqualified)
        a.notes.push_back(std::to_string(unqualified) + " record(s) with an endpoint of no listed node: not compared");
    if (same_host)
        a.notes.push_back(std::to_string(same_host) + " inter-node record(s) between ranks of one host: not compared "
                                                      "(shared-memory transport, not a network)");
    else if (cluster.shared_host)
        a.notes.push_back("ranks shared a host: inter-node numbers are shared-memory transport, not a network");
    return a;
}

}  // namespace hwcomm::analyze
