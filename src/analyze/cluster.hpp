#pragma once
// The cluster view of a results file of several nodes (`mpirun ... hwcomm run
// --mpi`, docs/cluster-view.md): identical links at cluster scale. Every node
// measures the same paths (method, local src, local dst, params); a node whose
// large-transfer bandwidth on one is well below the nodes' median is flagged,
// and so is an inter-node pair well below the pairs' median (pairs of ranks
// that shared a host are not compared: their numbers are shared-memory
// transport). Reads only the results file.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "io/cluster_section.hpp"

namespace hwcomm::analyze {

// A path compared across nodes or pairs needs at least this many of them:
// with two, neither can be told to be the odd one.
inline constexpr std::size_t kClusterMinPeers = 3;
inline constexpr double kClusterDefaultThreshold = 0.15;

// One record's path without its node: the same on every node.
struct ClusterPath {
    std::string method, src, dst;  // local ids ("numa0", "gpu1")
    std::map<std::string, std::string> params;
    std::string label() const;      // "memcpy-h2d numa0->gpu0 host_mem=pinned,numa=0"
};

// A node (or, for inter-node paths, a pair "node1->node3") below its peers.
struct ClusterDeviation {
    std::string who;                // "node2" | "node1->node3"
    ClusterPath path;
    std::string key;                // the record's key
    double gbps = 0;                // its large-transfer bandwidth
    double median_gbps = 0;         // median of the peers, itself included
    double below = 0;               // 1 - gbps / median_gbps
    std::size_t peers = 0;          // nodes (pairs) that measured the path
};

struct ClusterNodeState {
    std::string name, status, error;
    std::size_t records = 0, error_records = 0;  // node-local records and those that failed
};

// The best large-transfer bandwidth measured between two nodes, any method,
// either way: of the per-direction records when there are any ("bi" records
// count the bytes of both directions), else of all.
struct ClusterLink {
    std::string a, b;               // node names, a < b as listed in the file
    double best_gbps = 0;
    bool best_per_direction = false;
    std::string best_key;
    std::size_t records = 0, error_records = 0;
    bool shared_host = false;       // the two ranks shared a host: shared-memory numbers
    std::string transport;          // context.mpi_transport of the best record, "" when unknown
};

struct ClusterAnalysis {
    std::string source;
    double threshold = kClusterDefaultThreshold;
    ClusterSection cluster;
    std::vector<ClusterNodeState> nodes;
    std::vector<ClusterLink> links;
    std::size_t node_paths_compared = 0, pair_paths_compared = 0;
    std::vector<ClusterDeviation> node_flags, pair_flags;
    std::vector<std::string> notes;
};

// Each node's graph (nodes whose topology is absent or does not parse are left out).
std::map<std::string, Graph> cluster_node_graphs(const ClusterSection& cluster);

std::vector<ClusterLink> cluster_links(const ResultsFile& file, const ClusterSection& cluster);

// Throws std::invalid_argument for a threshold outside (0, 1).
ClusterAnalysis analyze_cluster(const std::string& source, const ResultsFile& file, const ClusterSection& cluster,
                                double threshold = kClusterDefaultThreshold);

// One measured inter-node link as the JSON of analyze and topo.
nlohmann::json cluster_link_to_json(const ClusterLink& link);
nlohmann::json cluster_analysis_to_json(const ClusterAnalysis& a);
std::string format_cluster_analysis_text(const ClusterAnalysis& a);
std::string format_cluster_analysis_markdown(const ClusterAnalysis& a);

}  // namespace hwcomm::analyze
