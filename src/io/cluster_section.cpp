#include "io/cluster_section.hpp"

#include <cstdint>
#include <set>

#include "core/error.hpp"

namespace hwcomm {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw UsageError("cluster section: " + where + " " + what);
}

// The member `key` of object `j` when present and not null, else nullptr;
// bad input when `j` is not an object.
const json* member(const json& j, const char* key, const std::string& where) {
    if (!j.is_object()) bad(where, "is not an object");
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string text(const json& j, const char* key, const std::string& where, std::string fallback = "") {
    const json* v = member(j, key, where);
    if (!v) return fallback;
    if (!v->is_string()) bad(where + "." + key, "is not a string");
    return v->get<std::string>();
}

std::vector<std::string> texts(const json& j, const char* key, const std::string& where) {
    std::vector<std::string> out;
    const json* v = member(j, key, where);
    if (!v) return out;
    if (!v->is_array()) bad(where + "." + key, "is not an array");
    for (const json& s : *v) {
        if (!s.is_string()) bad(where + "." + key, "holds something other than strings");
        out.push_back(s.get<std::string>());
    }
    return out;
}

// A rank or a rank count: an integer in [0, 2^31).
int small_count(const json& v, const std::string& where) {
    if (!v.is_number_integer() || (v.is_number_unsigned() ? v.get<std::uint64_t>() > INT32_MAX
                                                            : v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > INT32_MAX))
        bad(where, "is not an integer in [0, 2^31)");
    return static_cast<int>(v.get<std::int64_t>());
}

ClusterMpi mpi_from_json(const json& j) {
    const std::string where = "mpi";
    ClusterMpi m;
    m.library = text(j, "library", where);
    m.version = text(j, "version", where);
    m.standard = text(j, "standard", where);
    m.cuda_aware_source = text(j, "cuda_aware_source", where);
    if (const json* v = member(j, "cuda_aware", where)) {
        if (!v->is_boolean()) bad(where + ".cuda_aware", "is not true, false or null");
        m.cuda_aware = v->get<bool>();
    }
    return m;
}

ClusterNodeInfo node_from_json(const json& j, std::size_t index) {
    const std::string where = "nodes[" + std::to_string(index) + "]";
    ClusterNodeInfo n;
    n.name = text(j, "name", where);
    if (n.name.empty()) bad(where, "has no name");
    if (n.name.find(':') != std::string::npos) bad(where + ".name", "'" + n.name + "' contains ':'");
    if (const json* v = member(j, "rank", where)) {
        n.rank = small_count(*v, where + ".rank");
    }
    n.hostname = text(j, "hostname", where);
    n.host_id = text(j, "host_id", where);
    n.shares_host_with = texts(j, "shares_host_with", where);
    n.nics = texts(j, "nics", where);
    n.nic_used = text(j, "nic_used", where);
    n.status = text(j, "status", where, "ok");
    if (n.status != "ok" && n.status != "error") bad(where + ".status", "is '" + n.status + "', not ok or error");
    n.error = text(j, "error", where);
    for (const auto& [key, target] : {std::pair{"meta", &n.meta}, std::pair{"topology", &n.topology}})
        if (const json* v = member(j, key, where)) {
            if (!v->is_object()) bad(where + "." + key, "is not an object");
            *target = *v;
        }
    return n;
}

ClusterSchedule schedule_from_json(const json& j, const std::set<std::string>& names) {
    const std::string where = "schedule";
    ClusterSchedule s;
    s.kind = text(j, "kind", where);
    if (const json* v = member(j, "estimate_s", where)) {
        if (!v->is_number()) bad(where + ".estimate_s", "is not a number");
        s.estimate_s = v->get<double>();
    }
    const json* rounds = member(j, "rounds", where);
    if (!rounds) return s;
    if (!rounds->is_array()) bad(where + ".rounds", "is not an array");
    for (const json& round : *rounds) {
        if (!round.is_array()) bad(where + ".rounds", "holds a round that is not an array");
        auto& pairs = s.rounds.emplace_back();
        for (const json& pair : round) {
            if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
                bad(where + ".rounds", "holds a pair that is not two node names");
            pairs.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
            for (const std::string* name : {&pairs.back().first, &pairs.back().second})
                if (!names.count(*name)) bad(where + ".rounds", "names '" + *name + "', which is not a node");
        }
    }
    return s;
}

}  // namespace

std::vector<std::string> ClusterSection::node_names() const {
    std::vector<std::string> out;
    for (const ClusterNodeInfo& n : nodes) out.push_back(n.name);
    return out;
}

const ClusterNodeInfo* ClusterSection::find(const std::string& name) const {
    for (const ClusterNodeInfo& n : nodes)
        if (n.name == name) return &n;
    return nullptr;
}

ClusterSection cluster_section_from_json(const json& j) {
    if (!j.is_object()) throw UsageError("cluster section: is not an object");
    ClusterSection c;
    if (const json* v = member(j, "mpi", "cluster")) c.mpi = mpi_from_json(*v);
    if (const json* v = member(j, "ranks", "cluster")) {
        c.ranks = small_count(*v, "ranks");
    }
    if (const json* v = member(j, "shared_host", "cluster")) {
        if (!v->is_boolean()) bad("shared_host", "is not true or false");
        c.shared_host = v->get<bool>();
    }
    std::set<std::string> names;
    if (const json* v = member(j, "nodes", "cluster")) {
        if (!v->is_array()) bad("nodes", "is not an array");
        for (std::size_t i = 0; i < v->size(); ++i) {
            c.nodes.push_back(node_from_json((*v)[i], i));
            if (!names.insert(c.nodes.back().name).second)
                bad("nodes", "name '" + c.nodes.back().name + "' twice");
        }
    }
    if (const json* v = member(j, "schedule", "cluster")) c.schedule = schedule_from_json(*v, names);
    return c;
}

bool is_cluster_file(const ResultsFile& file) {
    return file.unknown.is_object() && file.unknown.contains("cluster");
}

std::optional<ClusterSection> cluster_section_of(const ResultsFile& file) {
    if (!is_cluster_file(file)) return std::nullopt;
    return cluster_section_from_json(file.unknown.at("cluster"));
}

EndpointId split_cluster_endpoint(const std::string& id, const ClusterSection& cluster) {
    return split_endpoint_id(id, cluster.node_names());
}

std::optional<NodeLocalRecord> node_local_record(const Record& record, const std::vector<std::string>& nodes) {
    const EndpointId src = split_endpoint_id(record.src, nodes), dst = split_endpoint_id(record.dst, nodes);
    if (src.node.empty() || src.node != dst.node) return std::nullopt;
    NodeLocalRecord out{src.node, record};
    out.record.src = src.local;
    out.record.dst = dst.local;
    for (LaneSpec& lane : out.record.lanes)
        for (std::string* id : {&lane.src, &lane.dst}) {
            if (id->empty()) continue;
            const EndpointId e = split_endpoint_id(*id, nodes);
            if (e.node != src.node) return std::nullopt;  // a lane on another node: not node-local
            *id = e.local;
        }
    out.record.key = record_key(out.record.method, out.record.src, out.record.dst, out.record.params);
    return out;
}

ResultsFile cluster_node_results(const ResultsFile& file, const ClusterSection& cluster, const std::string& node) {
    const ClusterNodeInfo* n = cluster.find(node);
    if (!n) {
        std::string names;
        for (const std::string& name : cluster.node_names()) names += (names.empty() ? "" : ", ") + name;
        throw UsageError("no node '" + node + "' in this cluster file (nodes: " + names + ")");
    }
    ResultsFile out;
    out.meta = n->meta;
    out.topology = n->topology;
    const auto names = cluster.node_names();
    for (const Record& r : file.records)
        if (auto local = node_local_record(r, names); local && local->node == node)
            out.records.push_back(std::move(local->record));
    return out;
}

}  // namespace hwcomm
