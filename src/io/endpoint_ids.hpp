#pragma once
// Endpoint ids across nodes. A file of one node uses the graph's plain ids
// ("gpu0"); a file that holds several nodes qualifies every endpoint with its
// node ("nodeA:gpu0") and lists the nodes in meta.nodes. Plain ids may contain
// colons themselves ("pci:0000:00:06.0"), so splitting needs the node list.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm {

struct EndpointId {
    std::string node;   // empty: not qualified with a listed node
    std::string local;  // the id in that node's graph
};

std::string qualify_endpoint_id(const std::string& node, const std::string& local_id);
// Splits at the first ':' when what precedes it is one of `nodes`.
EndpointId split_endpoint_id(const std::string& id, const std::vector<std::string>& nodes);

// meta.nodes (names of the nodes the file holds); empty when absent.
std::vector<std::string> meta_nodes(const nlohmann::json& meta);
void set_meta_nodes(nlohmann::json& meta, const std::vector<std::string>& nodes);

// Rewrites every record of a one-node file to ids qualified with `node`
// (src, dst, lanes, key) and sets meta.nodes to {node}: the first step of
// merging files of several nodes. Throws std::runtime_error when the file
// already lists other nodes.
void qualify_results(ResultsFile& file, const std::string& node);

}  // namespace hwcomm
