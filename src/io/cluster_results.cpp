#include "io/cluster_results.hpp"

#include "io/results_json.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm {

nlohmann::json cluster_node_to_json(const ClusterNode& n) {
    return {{"name", n.name},
            {"rank", n.rank},
            {"hostname", n.hostname},
            {"host_id", n.host_id},
            {"shares_host_with", n.shares_host_with},
            {"nics", n.nics},
            {"nic_used", n.nic_used ? nlohmann::json(*n.nic_used) : nlohmann::json(nullptr)},
            {"status", n.status},
            {"error", n.error},
            {"meta", n.meta},
            {"topology", n.topology}};
}

nlohmann::json cluster_section(const nlohmann::json& mpi, const std::vector<ClusterNode>& nodes,
                               const nlohmann::json& schedule) {
    nlohmann::json out{{"mpi", mpi}, {"ranks", nodes.size()}};
    bool shared = false;
    nlohmann::json list = nlohmann::json::array();
    for (const ClusterNode& n : nodes) {
        shared = shared || !n.shares_host_with.empty();
        list.push_back(cluster_node_to_json(n));
    }
    out["shared_host"] = shared;
    out["nodes"] = std::move(list);
    out["schedule"] = schedule;
    return out;
}

void save_cluster_results(const std::string& path, const ResultsFile& file) {
    nlohmann::json doc = results_to_json(file);
    doc["version"] = kClusterResultsVersion;
    write_file_atomically(path, doc.dump(1) + "\n");
}

}  // namespace hwcomm
