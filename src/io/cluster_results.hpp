#pragma once
// Cluster results files (hwcomm run --mpi; the contract in docs/cluster.md):
// an ordinary results file of version "2.1" whose top-level topology is
// empty, whose records are node-qualified, and whose "cluster" section lists
// the MPI library, the nodes (each with its own meta and topology) and the
// pair schedule.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm {

inline constexpr const char* kClusterResultsVersion = "2.1";

struct ClusterNode {
    std::string name;
    int rank = 0;
    std::string hostname, host_id;
    std::vector<std::string> shares_host_with;
    std::vector<std::string> nics;        // network interface vertex ids of its graph
    std::optional<std::string> nic_used;  // nullopt: unknown (or shared memory)
    std::string status = "ok";            // "ok" | "error"
    std::string error;
    nlohmann::json meta = nlohmann::json::object();
    nlohmann::json topology = nlohmann::json::object();
};

nlohmann::json cluster_node_to_json(const ClusterNode& node);

// The file's "cluster" section.
nlohmann::json cluster_section(const nlohmann::json& mpi, const std::vector<ClusterNode>& nodes,
                               const nlohmann::json& schedule);

// Writes atomically, as save_results does, with version "2.1".
void save_cluster_results(const std::string& path, const ResultsFile& file);

}  // namespace hwcomm
