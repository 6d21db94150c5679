#include "core/graph_json.hpp"

#include "core/json_parse.hpp"

#include <stdexcept>

namespace hwcomm {

using nlohmann::json;

namespace {

json vertex_to_json(const Vertex& v) {
    json j{{"id", v.id}, {"kind", to_string(v.kind)}, {"name", v.name}};
    if (v.os_index >= 0) j["os_index"] = v.os_index;
    if (v.pci) j["pci"] = v.pci->to_string();
    if (v.numa) {
        j["numa"] = {{"memory_bytes", v.numa->memory_bytes}, {"cpuset", v.numa->cpuset},
                     {"pus", v.numa->pus}, {"cores", v.numa->cores}};
    }
    if (v.gpu) {
        const auto& g = *v.gpu;
        j["gpu"] = {{"model", g.model}, {"uuid", g.uuid}, {"cuda_ordinal", g.cuda_ordinal},
                    {"nvml_index", g.nvml_index}, {"memory_bytes", g.memory_bytes}, {"sm_count", g.sm_count},
                    {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
                    {"cpu_affinity", g.cpu_affinity}, {"numa_affinity", g.numa_affinity}};
    }
    if (!v.attrs.empty()) j["attrs"] = v.attrs;
    return j;
}

Vertex vertex_from_json(const json& j) {
    Vertex v;
    v.id = j.at("id").get<std::string>();
    auto kind = vertex_kind_from_string(j.at("kind").get<std::string>());
    if (!kind) throw std::runtime_error("unknown vertex kind '" + j.at("kind").get<std::string>() + "'");
    v.kind = *kind;
    v.name = j.value("name", "");
    v.os_index = j.value("os_index", -1);
    if (j.contains("pci")) {
        v.pci = PciAddress::parse(j.at("pci").get<std::string>());
        if (!v.pci) throw std::runtime_error("bad PCI address in vertex " + v.id);
    }
    if (j.contains("numa")) {
        const auto& n = j.at("numa");
        v.numa = NumaInfo{n.value("memory_bytes", std::uint64_t{0}), n.value("cpuset", ""),
                          n.value("pus", std::vector<unsigned>{}), n.value("cores", 0u)};
    }
    if (j.contains("gpu")) {
        const auto& g = j.at("gpu");
        GpuInfo info;
        info.model = g.value("model", "");
        info.uuid = g.value("uuid", "");
        info.cuda_ordinal = g.value("cuda_ordinal", -1);
        info.nvml_index = g.value("nvml_index", -1);
        info.memory_bytes = g.value("memory_bytes", std::uint64_t{0});
        info.sm_count = g.value("sm_count", 0);
        const std::string cc = g.value("compute_capability", "0.0");
        if (auto dot = cc.find('.'); dot != std::string::npos) {
            info.cc_major = std::stoi(cc.substr(0, dot));
            info.cc_minor = std::stoi(cc.substr(dot + 1));
        }
        info.cpu_affinity = g.value("cpu_affinity", "");
        info.numa_affinity = g.value("numa_affinity", std::vector<int>{});
        v.gpu = info;
    }
    if (j.contains("attrs")) v.attrs = j.at("attrs").get<std::map<std::string, std::string>>();
    return v;
}

json edge_to_json(const Edge& e) {
    json j{{"a", e.a}, {"b", e.b}, {"kind", to_string(e.kind)}};
    // A rate no source gives is null, never 0 (which would read as a real, tiny rate).
    j["gbps_per_direction"] = e.gbps_per_direction > 0 ? json(e.gbps_per_direction) : json(nullptr);
    if (e.internal) j["internal"] = true;
    if (e.max_gbps_per_direction > 0) j["max_gbps_per_direction"] = e.max_gbps_per_direction;
    if (e.pcie) {
        j["pcie"] = {{"generation", e.pcie->generation}, {"width", e.pcie->width},
                     {"max_generation", e.pcie->max_generation}, {"max_width", e.pcie->max_width}};
    }
    if (e.nvlink) {
        j["nvlink"] = {{"version", e.nvlink->version}, {"nvml_version", e.nvlink->nvml_version},
                       {"links", e.nvlink->links}, {"per_link_gbps", e.nvlink->per_link_gbps}};
    }
    if (e.kind == EdgeKind::Smp) j["distance"] = e.smp_distance;
    if (!e.source.empty()) j["source"] = e.source;
    return j;
}

Edge edge_from_json(const json& j) {
    Edge e;
    e.a = j.at("a").get<std::string>();
    e.b = j.at("b").get<std::string>();
    auto kind = edge_kind_from_string(j.at("kind").get<std::string>());
    if (!kind) throw std::runtime_error("unknown edge kind '" + j.at("kind").get<std::string>() + "'");
    e.kind = *kind;
    const auto rate = j.find("gbps_per_direction");
    e.gbps_per_direction = rate != j.end() && rate->is_number() ? rate->get<double>() : 0.0;
    e.internal = j.value("internal", false);
    e.max_gbps_per_direction = j.value("max_gbps_per_direction", 0.0);
    if (j.contains("pcie")) {
        const auto& p = j.at("pcie");
        e.pcie = PcieLink{p.value("generation", 0), p.value("width", 0), p.value("max_generation", 0),
                          p.value("max_width", 0)};
    }
    if (j.contains("nvlink")) {
        const auto& n = j.at("nvlink");
        e.nvlink = NvLinkBond{n.value("version", ""), n.value("nvml_version", 0), n.value("links", 0),
                              n.value("per_link_gbps", 0.0)};
    }
    e.smp_distance = j.value("distance", 0);
    e.source = j.value("source", "");
    return e;
}

}  // namespace

json graph_to_json(const Graph& graph) {
    json j{{"schema", kTopologySchema}, {"schema_version", kTopologySchemaVersion}};
    j["vertices"] = json::array();
    for (const auto& v : graph.vertices()) j["vertices"].push_back(vertex_to_json(v));
    j["edges"] = json::array();
    for (const auto& e : graph.edges()) j["edges"].push_back(edge_to_json(e));
    j["notes"] = graph.notes;
    j["provenance"] = graph.provenance;
    return j;
}

Graph graph_from_json(const json& doc) {
    // Every reader of a results file gets here: whatever the document holds is
    // a one-line runtime_error, never a JSON-library type error.
    try {
        if (!doc.is_object() || !doc.contains("schema") || doc.at("schema") != kTopologySchema)
            throw std::runtime_error("not an hwcomm topology document");
        if (doc.value("schema_version", json(0)) != kTopologySchemaVersion)
            throw std::runtime_error("unsupported topology schema version " + doc.value("schema_version", json(0)).dump());
        Graph g;
        for (const auto& v : doc.at("vertices")) g.add_vertex(vertex_from_json(v));
        for (const auto& e : doc.at("edges")) g.add_edge(edge_from_json(e));
        g.notes = doc.value("notes", std::vector<std::string>{});
        g.provenance = doc.value("provenance", std::map<std::string, std::string>{});
        return g;
    } catch (const json::exception& ex) {
        throw std::runtime_error("malformed topology: " + json_error_text(ex));
    } catch (const std::invalid_argument& ex) {
        throw std::runtime_error(std::string("malformed topology: ") + ex.what());
    }
}

}  // namespace hwcomm
