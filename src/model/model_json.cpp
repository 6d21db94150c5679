// The model file: {"schema": "hwcomm-model", "version": "2.0", ...}
// (docs/model.md). Reading checks every field it uses, so a damaged or foreign
// file is one UsageError line, never a crash or a half-read model.
#include <cmath>
#include <filesystem>

#include "core/error.hpp"
#include "core/json_parse.hpp"
#include "model/model.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm::model {

using nlohmann::json;

const CurveModel* Model::find(const std::string& key) const {
    for (const CurveModel& c : curves)
        if (c.key == key) return &c;
    return nullptr;
}

json model_to_json(const Model& m) {
    json j{{"schema", kModelSchema}, {"version", kModelVersion}};
    j["units"] = {{"time", "s"}, {"bandwidth", "GB/s = 1e9 bytes/s"}, {"size", "bytes"}};
    for (const SourceFile& s : m.sources)
        j["sources"].push_back({{"path", s.path}, {"revision", s.revision}, {"date_utc", s.date_utc},
                                {"host", s.host}, {"fingerprint", s.fingerprint}, {"records", s.records}});
    j["notes"] = m.notes;
    j["curves"] = json::array();
    for (const CurveModel& c : m.curves) {
        json knots = json::array();
        for (const Knot& k : c.fit.knots) knots.push_back({k.bytes, k.seconds, k.loo_error});
        j["curves"].push_back({{"key", c.key}, {"method", c.method}, {"src", c.src}, {"dst", c.dst},
                               {"params", c.params}, {"source", c.source}, {"provenance", c.provenance},
                               {"lanes", c.lanes}, {"load_lanes", c.load_lanes}, {"bytes_factor", c.fit.bytes_per_rep_factor},
                               {"latency_s", c.fit.latency_s}, {"asymptotic_gbps", c.fit.asymptotic_gbps},
                               {"hockney_rel_rms", c.fit.hockney_rel_rms}, {"plateau_gbps", c.fit.plateau_gbps},
                               {"latency_end_bytes", c.fit.latency_end_bytes},
                               {"plateau_start_bytes", c.fit.plateau_start_bytes}, {"limit_gbps", c.limit_gbps},
                               {"limit", c.limit_what}, {"bottleneck", c.bottleneck},
                               {"knots", std::move(knots)}});
    }
    j["shared_edges"] = json::array();
    for (const SharedEdgeFit& e : m.shared_edges) {
        json obs = json::array();
        for (const EdgeObservation& o : e.observations)
            obs.push_back({{"record", o.record}, {"transfers", o.transfers}, {"demand_gbps", o.demand_gbps},
                           {"carried_gbps", o.carried_gbps}, {"carried_range", {o.carried_least, o.carried_most}}});
        j["shared_edges"].push_back({{"edge", e.edge}, {"what", e.what}, {"kind", e.kind},
                                     {"stated_gbps", e.stated_gbps}, {"family", "smooth-min"},
                                     {"capacity_gbps", e.curve.capacity_gbps}, {"sharpness", e.curve.sharpness},
                                     {"sharpness_fitted", e.curve.sharpness_fitted}, {"rel_rms", e.curve.rel_rms},
                                     {"counts", counts_of(e.observations)}, {"observations", std::move(obs)}});
    }
    j["topology"] = m.topology;
    return j;
}

namespace {

// Field access that turns any type or range problem into one UsageError line.
template <class T>
T field(const json& j, const char* key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) throw UsageError("model: " + where + " has no '" + key + "'");
    try {
        return j.at(key).get<T>();
    } catch (const json::exception&) {
        throw UsageError("model: " + where + ": '" + key + "' has the wrong type");
    }
}

CurveModel curve_from_json(const json& c, std::size_t index, std::size_t n_sources) {
    const std::string where = "curve " + std::to_string(index);
    CurveModel m;
    m.key = field<std::string>(c, "key", where);
    m.method = field<std::string>(c, "method", where);
    m.src = field<std::string>(c, "src", where);
    m.dst = field<std::string>(c, "dst", where);
    m.params = field<std::map<std::string, std::string>>(c, "params", where);
    m.source = field<std::size_t>(c, "source", where);
    if (m.source >= n_sources) throw UsageError("model: " + where + " names source " + std::to_string(m.source) +
                                                " of " + std::to_string(n_sources));
    m.provenance = field<std::string>(c, "provenance", where);
    m.lanes = field<std::size_t>(c, "lanes", where);
    m.load_lanes = c.contains("load_lanes") ? field<std::size_t>(c, "load_lanes", where) : 0;
    m.fit.bytes_per_rep_factor = field<double>(c, "bytes_factor", where);
    m.fit.latency_s = field<double>(c, "latency_s", where);
    m.fit.asymptotic_gbps = field<double>(c, "asymptotic_gbps", where);
    m.fit.hockney_rel_rms = field<double>(c, "hockney_rel_rms", where);
    m.fit.plateau_gbps = field<double>(c, "plateau_gbps", where);
    m.fit.latency_end_bytes = field<std::uint64_t>(c, "latency_end_bytes", where);
    m.fit.plateau_start_bytes = field<std::uint64_t>(c, "plateau_start_bytes", where);
    m.limit_gbps = field<double>(c, "limit_gbps", where);
    m.limit_what = field<std::string>(c, "limit", where);
    m.bottleneck = field<std::string>(c, "bottleneck", where);
    const auto knots = field<std::vector<std::vector<double>>>(c, "knots", where);
    std::uint64_t previous = 0;
    for (const auto& k : knots) {
        if (k.size() != 3 || !(k[0] >= 1) || !(k[0] < 1.8e19) || !(k[1] > 0) || !std::isfinite(k[2]) || k[0] <= double(previous))
            throw UsageError("model: " + where + " (" + m.key + ") has a bad knot");
        previous = static_cast<std::uint64_t>(k[0]);
        m.fit.knots.push_back({previous, k[1], k[2]});
    }
    if (m.fit.knots.empty()) throw UsageError("model: " + where + " (" + m.key + ") has no knot");
    if (!(m.fit.plateau_gbps > 0) || !(m.fit.bytes_per_rep_factor > 0))
        throw UsageError("model: " + where + " (" + m.key + ") has no plateau rate");
    return m;
}

SharedEdgeFit shared_edge_from_json(const json& e) {
    const std::string where = "shared edge";
    SharedEdgeFit f;
    f.edge = field<std::string>(e, "edge", where);
    const std::string at = where + " " + f.edge;
    f.what = field<std::string>(e, "what", at);
    f.kind = field<std::string>(e, "kind", at);
    f.stated_gbps = field<double>(e, "stated_gbps", at);
    if (field<std::string>(e, "family", at) != "smooth-min") throw UsageError("model: " + at + " has an unknown family");
    f.curve.capacity_gbps = field<double>(e, "capacity_gbps", at);
    f.curve.sharpness = field<double>(e, "sharpness", at);
    f.curve.sharpness_fitted = field<bool>(e, "sharpness_fitted", at);
    f.curve.rel_rms = field<double>(e, "rel_rms", at);
    if (!(f.curve.capacity_gbps > 0) || !std::isfinite(f.curve.capacity_gbps) || !(f.curve.sharpness >= 1) ||
        !(f.curve.sharpness <= kMaxSharpness) || !(f.stated_gbps >= 0))
        throw UsageError("model: " + at + " has a bad curve");
    const json obs = field<json>(e, "observations", at);
    if (!obs.is_array() || obs.empty()) throw UsageError("model: " + at + " has no observation");
    for (const json& o : obs) {
        const auto range = field<std::vector<double>>(o, "carried_range", at);
        EdgeObservation x{field<std::string>(o, "record", at), field<std::size_t>(o, "transfers", at),
                          field<double>(o, "demand_gbps", at), field<double>(o, "carried_gbps", at),
                          range.size() == 2 ? range[0] : 0, range.size() == 2 ? range[1] : 0};
        if (x.transfers < 2 || !(x.demand_gbps > 0) || !(x.carried_gbps > 0) || !std::isfinite(x.demand_gbps) ||
            !std::isfinite(x.carried_gbps) || range.size() != 2 || !(x.carried_least > 0) ||
            !(x.carried_least <= x.carried_gbps) || !(x.carried_most >= x.carried_gbps) ||
            !std::isfinite(x.carried_most))
            throw UsageError("model: " + at + " has a bad observation");
        f.observations.push_back(std::move(x));
    }
    return f;
}

}  // namespace

Model model_from_json(const json& j) {
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string() ||
        j["schema"].get<std::string>() != kModelSchema)
        throw UsageError(std::string("model: not a model file (no \"schema\": \"") + kModelSchema + "\")");
    const std::string version = field<std::string>(j, "version", "the file");
    if (version.rfind("1.", 0) == 0)
        throw UsageError("model: version " + version + " is from an older hwcomm (one fixed capacity per shared " +
                         "edge, no lane-count curve): fit it again from its results files with hwcomm model fit");
    if (version.rfind("2.", 0) != 0) throw UsageError("model: version " + version + " is not readable (2.x)");
    Model m;
    for (const json& s : field<json>(j, "sources", "the file")) {
        const std::string where = "source";
        m.sources.push_back({field<std::string>(s, "path", where), field<std::string>(s, "revision", where),
                             field<std::string>(s, "date_utc", where), field<std::string>(s, "host", where),
                             s.value("fingerprint", json()), field<std::size_t>(s, "records", where)});
    }
    if (m.sources.empty()) throw UsageError("model: the file names no results file it came from");
    const json curves = field<json>(j, "curves", "the file");
    if (!curves.is_array()) throw UsageError("model: 'curves' is not an array");
    for (std::size_t i = 0; i < curves.size(); ++i) m.curves.push_back(curve_from_json(curves[i], i, m.sources.size()));
    for (const json& e : field<json>(j, "shared_edges", "the file")) m.shared_edges.push_back(shared_edge_from_json(e));
    m.notes = j.value("notes", std::vector<std::string>{});
    m.topology = field<json>(j, "topology", "the file");
    return m;
}

Model load_model(const std::string& path) {
    const json j = parse_json_file(path, "model file", kMaxJsonDepth);
    try {
        return model_from_json(j);
    } catch (const UsageError& e) {
        throw UsageError(path + ": " + e.what());
    }
}

void save_model(const std::string& path, const Model& model, bool force) {
    if (std::filesystem::exists(path) && !force)
        throw UsageError("model fit: " + path + " exists; use --force to overwrite it");
    write_file_atomically(path, model_to_json(model).dump(1) + "\n");
}

}  // namespace hwcomm::model
