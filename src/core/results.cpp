#include "core/results.hpp"

#include <stdexcept>

#include "core/json_parse.hpp"

namespace hwcomm {

using nlohmann::json;

const Record* ResultsFile::find(const std::string& key) const {
    for (const auto& r : records)
        if (r.key == key) return &r;
    return nullptr;
}

std::string record_key(const std::string& method, const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& params) {
    std::string key = method + "|" + src + "|" + dst + "|";
    bool first = true;
    for (const auto& [k, v] : params) {
        if (!first) key += ",";
        key += k + "=" + v;
        first = false;
    }
    return key;
}

json stats_to_json(const SampleStats& s) {
    return json{{"n", s.n},         {"min", s.min},       {"q1", s.q1},         {"median", s.median},
                {"q3", s.q3},       {"max", s.max},       {"mean", s.mean},     {"stdev", s.stdev},
                {"cv", s.cv},       {"ci95_low", s.ci95_low}, {"ci95_high", s.ci95_high}};
}

SampleStats stats_from_json(const json& j) {
    SampleStats s;
    s.n = j.at("n").get<std::size_t>();
    s.min = j.at("min").get<double>();
    s.q1 = j.at("q1").get<double>();
    s.median = j.at("median").get<double>();
    s.q3 = j.at("q3").get<double>();
    s.max = j.at("max").get<double>();
    s.mean = j.at("mean").get<double>();
    s.stdev = j.at("stdev").get<double>();
    s.cv = j.at("cv").get<double>();
    s.ci95_low = j.at("ci95_low").get<double>();
    s.ci95_high = j.at("ci95_high").get<double>();
    return s;
}

namespace {

json variant_to_json(const VariantResult& v) {
    return json{{"variant", v.variant}, {"stats", stats_to_json(v.stats)}, {"bandwidth_gbps", v.bandwidth_gbps},
                {"stop_reason", v.stop_reason}, {"samples_s", v.samples_s}};
}

VariantResult variant_from_json(const json& j) {
    VariantResult v;
    v.variant = j.at("variant").get<std::string>();
    v.stats = stats_from_json(j.at("stats"));
    v.bandwidth_gbps = j.at("bandwidth_gbps").get<double>();
    v.stop_reason = j.value("stop_reason", "");
    v.samples_s = j.value("samples_s", std::vector<double>{});
    return v;
}

json lane_spec_to_json(const LaneSpec& l) {
    return json{{"label", l.label}, {"method", l.method}, {"src", l.src}, {"dst", l.dst}, {"params", l.params},
                {"role", l.role}};
}

LaneSpec lane_spec_from_json(const json& j) {
    LaneSpec l;
    l.label = j.at("label").get<std::string>();
    l.method = j.value("method", "");
    l.src = j.value("src", "");
    l.dst = j.value("dst", "");
    l.params = j.value("params", std::map<std::string, std::string>{});
    l.role = j.value("role", "measured");
    return l;
}

json lane_point_to_json(const LanePoint& l) {
    return json{{"label", l.label}, {"bytes_per_rep", l.bytes_per_rep}, {"stats", stats_to_json(l.stats)},
                {"bandwidth_gbps", l.bandwidth_gbps}, {"samples_s", l.samples_s}};
}

LanePoint lane_point_from_json(const json& j) {
    LanePoint l;
    l.label = j.at("label").get<std::string>();
    l.bytes_per_rep = j.value("bytes_per_rep", 0.0);
    if (j.contains("stats")) l.stats = stats_from_json(j.at("stats"));
    l.bandwidth_gbps = j.value("bandwidth_gbps", 0.0);
    l.samples_s = j.value("samples_s", std::vector<double>{});
    return l;
}

json point_to_json(const Point& p) {
    json j{{"bytes", p.bytes}, {"status", p.status}};
    if (p.status != "ok") j["error"] = p.error;
    j["verified"] = p.verified;
    if (p.stats.n == 0) return j;  // an error before any sample: nothing else to say
    j["stop_reason"] = p.stop_reason;
    j["samples_s"] = p.samples_s;
    j["stats"] = stats_to_json(p.stats);
    j["bandwidth_gbps"] = p.bandwidth_gbps;
    j["peak_bandwidth_gbps"] = p.peak_bandwidth_gbps;
    j["bytes_per_rep"] = p.bytes_per_rep;
    j["extras"] = p.extras;
    if (p.variants.size() > 1) {
        j["best_variant"] = p.best_variant;
        json vs = json::array();
        for (const auto& v : p.variants) vs.push_back(variant_to_json(v));
        j["variants"] = std::move(vs);
    }
    if (!p.axes.empty()) j["axes"] = p.axes;
    if (!p.metrics.empty()) {
        json m = json::object();
        for (const auto& [name, metric] : p.metrics) m[name] = {{"value", metric.value}, {"unit", metric.unit}};
        j["metrics"] = std::move(m);
    }
    if (!p.lanes.empty()) {
        json ls = json::array();
        for (const auto& l : p.lanes) ls.push_back(lane_point_to_json(l));
        j["lanes"] = std::move(ls);
    }
    return j;
}

Point point_from_json(const json& j) {
    Point p;
    p.bytes = j.at("bytes").get<std::uint64_t>();
    p.status = j.at("status").get<std::string>();
    p.error = j.value("error", "");
    p.verified = j.value("verified", false);
    if (!j.contains("stats")) return p;
    p.stop_reason = j.value("stop_reason", "");
    p.samples_s = j.value("samples_s", std::vector<double>{});
    p.stats = stats_from_json(j.at("stats"));
    p.bandwidth_gbps = j.at("bandwidth_gbps").get<double>();
    p.peak_bandwidth_gbps = j.value("peak_bandwidth_gbps", 0.0);
    p.bytes_per_rep = j.value("bytes_per_rep", static_cast<double>(p.bytes));
    p.extras = j.value("extras", std::map<std::string, double>{});
    p.best_variant = j.value("best_variant", "");
    if (j.contains("variants"))
        for (const auto& v : j.at("variants")) p.variants.push_back(variant_from_json(v));
    if (j.contains("axes")) p.axes = j.at("axes").get<std::map<std::string, json>>();
    if (j.contains("metrics"))
        for (const auto& [name, m] : j.at("metrics").items())
            p.metrics[name] = Metric{m.at("value").get<double>(), m.value("unit", "")};
    if (j.contains("lanes"))
        for (const auto& l : j.at("lanes")) p.lanes.push_back(lane_point_from_json(l));
    return p;
}

json record_to_json(const Record& r) {
    json j{{"key", r.key}, {"method", r.method}, {"src", r.src}, {"dst", r.dst}, {"params", r.params},
           {"status", r.status}};
    if (r.status != "ok") j["error"] = r.error;
    j["context"] = r.context;
    if (!r.provenance.empty()) j["provenance"] = r.provenance;
    if (!r.lanes.empty()) {
        json ls = json::array();
        for (const auto& l : r.lanes) ls.push_back(lane_spec_to_json(l));
        j["lanes"] = std::move(ls);
    }
    json points = json::array();
    for (const auto& p : r.points) points.push_back(point_to_json(p));
    j["points"] = std::move(points);
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
    r.context = j.value("context", json::object());
    r.provenance = j.value("provenance", json::object());
    if (j.contains("lanes"))
        for (const auto& l : j.at("lanes")) r.lanes.push_back(lane_spec_from_json(l));
    for (const auto& p : j.at("points")) r.points.push_back(point_from_json(p));
    return r;
}

}  // namespace

json results_to_json(const ResultsFile& file) {
    json records = json::array();
    for (const auto& r : file.records) records.push_back(record_to_json(r));
    return json{{"schema", kResultsSchema}, {"schema_version", kResultsSchemaVersion}, {"meta", file.meta},
                {"topology", file.topology}, {"records", std::move(records)}};
}

ResultsFile results_from_json(const json& doc) {
    if (!doc.is_object() || doc.value("schema", "") != kResultsSchema)
        throw std::runtime_error("not a hwcomm results file (schema is not \"hwcomm-results\")");
    const int version = doc.value("schema_version", 0);
    if (version != kResultsSchemaVersion)
        throw std::runtime_error("results schema version " + std::to_string(version) + " is not supported (this build reads " +
                                 std::to_string(kResultsSchemaVersion) + ")");
    ResultsFile file;
    try {
        file.meta = doc.at("meta");
        file.topology = doc.at("topology");
        for (const auto& r : doc.at("records")) file.records.push_back(record_from_json(r));
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("malformed results file: ") + e.what());
    }
    return file;
}

ResultsFile load_results_file(const std::string& path) {
    const json doc = parse_json_file(path, "results file");  // depth-limited, never blocks on a pipe
    try {
        return results_from_json(doc);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

}  // namespace hwcomm
