#pragma once
// The `cluster` section of a results file written by `mpirun ... hwcomm run
// --mpi` (results version 2.1, docs/cluster.md): the MPI library, the nodes
// (each with its own meta and topology) and the pair schedule, as plain
// structs. The results reader keeps the section among the unknown keys; this
// is its typed view. Missing fields take their defaults (a failed rank may
// leave little behind); a field of the wrong type, a node without a name or
// two nodes of one name are bad input.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "io/endpoint_ids.hpp"

namespace hwcomm {

struct ClusterMpi {
    std::string library;             // MPI_Get_library_version, first line
    std::string version, standard;   // "4.1.4", "3.1"
    std::optional<bool> cuda_aware;  // nullopt: unknown
    std::string cuda_aware_source;   // how cuda_aware was decided
};

struct ClusterNodeInfo {
    std::string name;                // unique; the prefix of its endpoints ("node07" in "node07:gpu2")
    int rank = -1;                   // -1: not stated
    std::string hostname, host_id;
    std::vector<std::string> shares_host_with;
    std::vector<std::string> nics;   // network interface vertex ids of its topology
    std::string nic_used;            // "" when unknown (shared memory)
    std::string status = "ok";       // "ok" | "error"
    std::string error;               // one line when status is "error"
    nlohmann::json meta = nlohmann::json::object();
    nlohmann::json topology = nlohmann::json::object();  // graph_to_json of that node; {} when it failed early
};

struct ClusterSchedule {
    std::string kind;  // "all-pairs" | "ring+random"
    std::vector<std::vector<std::pair<std::string, std::string>>> rounds;
    std::optional<double> estimate_s;
};

struct ClusterSection {
    ClusterMpi mpi;
    int ranks = 0;
    bool shared_host = false;
    std::vector<ClusterNodeInfo> nodes;
    ClusterSchedule schedule;

    std::vector<std::string> node_names() const;
    const ClusterNodeInfo* find(const std::string& name) const;
};

// Throws UsageError "cluster section: <what is wrong>" (one line).
ClusterSection cluster_section_from_json(const nlohmann::json& j);

// The file's cluster section; nullopt for a file of one node (no "cluster"
// key). Throws UsageError as above.
std::optional<ClusterSection> cluster_section_of(const ResultsFile& file);
bool is_cluster_file(const ResultsFile& file);

// "node07:gpu2" -> {"node07", "gpu2"}; an id of no listed node -> {"", id}.
EndpointId split_cluster_endpoint(const std::string& id, const ClusterSection& cluster);

// A node-local record seen from its node: both endpoints (and every lane's) of
// the one node `node`, ids unqualified, key recomputed, so the node's own graph
// resolves them. nullopt for an inter-node record or an id of no listed node.
struct NodeLocalRecord {
    std::string node;
    Record record;
};
std::optional<NodeLocalRecord> node_local_record(const Record& record, const std::vector<std::string>& nodes);

// One node of a cluster file as a file of that node alone: its meta and
// topology, its node-local records with plain ids. Throws UsageError naming
// the nodes when `node` is none of them.
ResultsFile cluster_node_results(const ResultsFile& file, const ClusterSection& cluster, const std::string& node);

}  // namespace hwcomm
