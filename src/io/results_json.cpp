#include "io/results_json.hpp"

#include <set>
#include <stdexcept>

#include "core/graph_json.hpp"
#include "core/json_parse.hpp"
#include "io/endpoint_ids.hpp"
#include "io/json_fields.hpp"
#include "io/results_migrate.hpp"

namespace hwcomm {

using nlohmann::json;
using namespace io_detail;

namespace {

json record_to_json(const Record& r) {
    json j{{"key", r.key}, {"method", r.method}, {"src", r.src}, {"dst", r.dst}, {"params", r.params},
           {"status", r.status}};
    if (r.status != "ok") j["error"] = r.error;
    if (!r.error_type.empty()) j["error_type"] = r.error_type;
    j["context"] = r.context;
    if (!r.provenance.empty()) j["provenance"] = r.provenance;
    if (!r.measured_as.empty()) j["measured_as"] = r.measured_as;
    if (!r.lanes.empty()) {
        json ls = json::array();
        for (const auto& l : r.lanes) ls.push_back(lane_spec_to_json(l));
        j["lanes"] = std::move(ls);
    }
    json points = json::array();
    for (const auto& p : r.points) points.push_back(point_to_json(p));
    j["points"] = std::move(points);
    merge_unknown(j, r.unknown);
    return j;
}

Record record_from_json(const json& j) {
    Record r;
    r.method = j.at("method").get<std::string>();
    r.src = j.at("src").get<std::string>();
    r.dst = j.at("dst").get<std::string>();
    r.params = j.value("params", std::map<std::string, std::string>{});
    r.key = j.at("key").get<std::string>();
    if (r.key != record_key(r.method, r.src, r.dst, r.params))
        throw std::runtime_error("record key '" + r.key + "' does not match its method, endpoints and params");
    r.status = j.at("status").get<std::string>();
    r.error = j.value("error", "");
    r.error_type = j.value("error_type", "");
    r.context = j.value("context", json::object());
    r.provenance = j.value("provenance", json::object());
    if (const auto m = j.find("measured_as"); m != j.end() && m->is_string()) r.measured_as = m->get<std::string>();
    if (j.contains("lanes"))
        for (const auto& l : j.at("lanes")) r.lanes.push_back(lane_spec_from_json(l));
    for (const auto& p : j.at("points")) r.points.push_back(point_from_json(p));
    r.unknown = unknown_keys(j, {"key", "method", "src", "dst", "params", "status", "error", "error_type", "context", "provenance",
                                 "measured_as", "lanes", "points"});
    return r;
}

// "2", "2.0", "2.13": major version 2.
bool is_version_2(const std::string& v) {
    if (v == "2") return true;
    if (v.size() < 3 || v.compare(0, 2, "2.") != 0) return false;
    for (std::size_t i = 2; i < v.size(); ++i)
        if (v[i] < '0' || v[i] > '9') return false;
    return true;
}

// meta is free-form, but the facts every reader takes from it have one type:
// a hand-edited "host": 3 is bad input, not an internal error later on.
void check_meta(const json& meta) {
    if (!meta.is_object()) throw std::runtime_error("meta must be an object, not " + std::string(meta.type_name()));
    for (const char* key : {"host", "date_utc", "tool_version", "git_revision", "kernel", "cpu_model"})
        if (const auto it = meta.find(key); it != meta.end() && !it->is_string())
            throw std::runtime_error(std::string("meta.") + key + " must be a string, not " + it->type_name());
}

// The machine graph every reader draws on: an object, and when it has
// vertices (not an import without --topology, not a cluster file, whose nodes
// carry their own) a topology that parses.
void check_topology(const json& topology) {
    if (!topology.is_object()) throw std::runtime_error("topology must be an object, not " + std::string(topology.type_name()));
    if (topology.contains("vertices")) (void)graph_from_json(topology);
}

void check_records(const ResultsFile& file) {
    std::set<std::string> keys;
    for (const auto& r : file.records)
        if (!keys.insert(r.key).second) throw std::runtime_error("duplicate record key '" + r.key + "'");
    const auto nodes = meta_nodes(file.meta);
    if (nodes.size() < 2) return;
    for (const auto& r : file.records)
        for (const std::string* id : {&r.src, &r.dst})
            if (split_endpoint_id(*id, nodes).node.empty())
                throw std::runtime_error("record '" + r.key + "': endpoint '" + *id +
                                         "' is not node-qualified in a file of " + std::to_string(nodes.size()) +
                                         " nodes");
}

}  // namespace

std::string results_version_of(const json& doc) {
    if (!doc.is_object()) return "";
    if (const auto it = doc.find("version"); it != doc.end()) return it->is_string() ? it->get<std::string>() : it->dump();
    if (const auto it = doc.find("schema_version"); it != doc.end()) return it->dump();
    return "";
}

json results_to_json(const ResultsFile& file) {
    json records = json::array();
    for (const auto& r : file.records) records.push_back(record_to_json(r));
    json j{{"schema", kResultsSchema}, {"version", kResultsVersion}, {"meta", file.meta},
           {"topology", file.topology}, {"records", std::move(records)}};
    if (!file.link_classes.is_null()) j["link_classes"] = file.link_classes;
    merge_unknown(j, file.unknown);
    return j;
}

ResultsFile results_from_json(const json& doc) {
    if (!doc.is_object() || doc.value("schema", "") != kResultsSchema)
        throw std::runtime_error("not a hwcomm results file (schema is not \"hwcomm-results\")");
    const std::string version = results_version_of(doc);
    // Version 1 wrote an integer "schema_version"; later versions a "version" string.
    const bool v1 = !doc.contains("version") && version == "1";
    if (!v1 && !(doc.contains("version") && is_version_2(version)))
        throw std::runtime_error("results version '" + version + "' is not supported (this build reads 1 and 2.x)");
    ResultsFile file;
    try {
        file.meta = doc.at("meta");
        file.topology = doc.at("topology");
        if (!doc.at("records").is_array())
            throw std::runtime_error("records must be an array, not " + std::string(doc.at("records").type_name()));
        for (const auto& r : doc.at("records")) file.records.push_back(record_from_json(r));
        if (const auto it = doc.find("link_classes"); it != doc.end()) file.link_classes = *it;
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("malformed results file: ") + json_error_text(e));
    }
    file.unknown =
        unknown_keys(doc, {"schema", "version", "schema_version", "meta", "topology", "records", "link_classes"});
    check_meta(file.meta);
    check_topology(file.topology);
    if (v1) migrate_v1(file);
    check_records(file);
    return file;
}

}  // namespace hwcomm
