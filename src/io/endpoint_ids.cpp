#include "io/endpoint_ids.hpp"

#include <algorithm>
#include <stdexcept>

namespace hwcomm {

std::string qualify_endpoint_id(const std::string& node, const std::string& local_id) {
    return node + ":" + local_id;
}

EndpointId split_endpoint_id(const std::string& id, const std::vector<std::string>& nodes) {
    const auto colon = id.find(':');
    if (colon != std::string::npos) {
        const std::string node = id.substr(0, colon);
        if (std::find(nodes.begin(), nodes.end(), node) != nodes.end()) return {node, id.substr(colon + 1)};
    }
    return {"", id};
}

std::vector<std::string> meta_nodes(const nlohmann::json& meta) {
    std::vector<std::string> out;
    if (!meta.is_object() || !meta.contains("nodes") || !meta.at("nodes").is_array()) return out;
    for (const auto& n : meta.at("nodes"))
        if (n.is_string()) out.push_back(n.get<std::string>());
    return out;
}

void set_meta_nodes(nlohmann::json& meta, const std::vector<std::string>& nodes) { meta["nodes"] = nodes; }

void qualify_results(ResultsFile& file, const std::string& node) {
    const auto nodes = meta_nodes(file.meta);
    if (nodes.size() > 1 || (nodes.size() == 1 && nodes.front() != node))
        throw std::runtime_error("results already qualified with node(s) other than '" + node + "'");
    if (nodes.size() == 1 && file.records.size() && !split_endpoint_id(file.records.front().src, nodes).node.empty())
        return;  // already qualified
    const auto q = [&node](std::string& id) {
        if (!id.empty()) id = qualify_endpoint_id(node, id);
    };
    for (auto& r : file.records) {
        q(r.src);
        q(r.dst);
        for (auto& l : r.lanes) {
            q(l.src);
            q(l.dst);
        }
        r.key = record_key(r.method, r.src, r.dst, r.params);
    }
    set_meta_nodes(file.meta, {node});
}

}  // namespace hwcomm
