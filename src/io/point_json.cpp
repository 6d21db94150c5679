#include "io/point_json.hpp"

#include "io/json_fields.hpp"

#include <cstdint>
#include <stdexcept>

namespace hwcomm {

using nlohmann::json;

using namespace io_detail;

namespace {

struct StatField {
    const char* name;
    double SampleStats::*field;
};

constexpr StatField kStatFields[] = {
    {"min", &SampleStats::min},   {"q1", &SampleStats::q1},       {"median", &SampleStats::median},
    {"q3", &SampleStats::q3},     {"max", &SampleStats::max},     {"mean", &SampleStats::mean},
    {"stdev", &SampleStats::stdev}, {"cv", &SampleStats::cv},     {"ci95_low", &SampleStats::ci95_low},
    {"ci95_high", &SampleStats::ci95_high},
};

}  // namespace

bool has_stats(const SampleStats& s) {
    if (s.n > 0) return true;
    for (const auto& f : kStatFields)
        if (std::isfinite(s.*f.field) && s.*f.field != 0) return true;
    return false;
}

json stats_to_json(const SampleStats& s) {
    json j{{"n", s.n}};
    for (const auto& f : kStatFields) put_number(j, f.name, s.*f.field);
    return j;
}

SampleStats stats_from_json(const json& j) {
    SampleStats s;
    s.n = j.contains("n") ? whole_number(j, "n") : 0;
    for (const auto& f : kStatFields) s.*f.field = number_or_nan(j, f.name);
    return s;
}

namespace {

json variant_to_json(const VariantResult& v) {
    json j{{"variant", v.variant}, {"stats", stats_to_json(v.stats)}};
    put_number(j, "bandwidth_gbps", v.bandwidth_gbps);
    j["stop_reason"] = v.stop_reason;
    j["samples_s"] = v.samples_s;
    merge_unknown(j, v.unknown);
    return j;
}

VariantResult variant_from_json(const json& j) {
    VariantResult v;
    v.variant = j.at("variant").get<std::string>();
    v.stats = stats_from_json(j.value("stats", json::object()));
    v.bandwidth_gbps = number_or_nan(j, "bandwidth_gbps");
    v.stop_reason = j.value("stop_reason", "");
    v.samples_s = j.value("samples_s", std::vector<double>{});
    v.unknown = unknown_keys(j, {"variant", "stats", "bandwidth_gbps", "stop_reason", "samples_s"});
    return v;
}

json lane_point_to_json(const LanePoint& l) {
    json j{{"label", l.label}};
    put_number(j, "bytes_per_rep", l.bytes_per_rep);
    if (has_stats(l.stats)) j["stats"] = stats_to_json(l.stats);
    put_number(j, "bandwidth_gbps", l.bandwidth_gbps);
    if (!l.samples_s.empty()) j["samples_s"] = l.samples_s;
    merge_unknown(j, l.unknown);
    return j;
}

LanePoint lane_point_from_json(const json& j) {
    LanePoint l;
    l.label = j.at("label").get<std::string>();
    l.bytes_per_rep = j.value("bytes_per_rep", 0.0);
    if (j.contains("stats")) l.stats = stats_from_json(j.at("stats"));
    l.bandwidth_gbps = number_or_nan(j, "bandwidth_gbps");
    l.samples_s = j.value("samples_s", std::vector<double>{});
    l.unknown = unknown_keys(j, {"label", "bytes_per_rep", "stats", "bandwidth_gbps", "samples_s"});
    return l;
}

}  // namespace

json lane_spec_to_json(const LaneSpec& l) {
    json j{{"label", l.label}, {"method", l.method}, {"src", l.src}, {"dst", l.dst}, {"params", l.params},
           {"role", l.role}};
    merge_unknown(j, l.unknown);
    return j;
}

LaneSpec lane_spec_from_json(const json& j) {
    LaneSpec l;
    l.label = j.at("label").get<std::string>();
    l.method = j.value("method", "");
    l.src = j.value("src", "");
    l.dst = j.value("dst", "");
    l.params = j.value("params", std::map<std::string, std::string>{});
    l.role = j.value("role", "measured");
    l.unknown = unknown_keys(j, {"label", "method", "src", "dst", "params", "role"});
    return l;
}

json point_to_json(const Point& p) {
    json j{{"bytes", p.bytes}, {"status", p.status}};
    if (p.status != "ok") j["error"] = p.error;
    j["verified"] = p.verified;
    if (!p.stop_reason.empty()) j["stop_reason"] = p.stop_reason;
    if (!p.samples_s.empty()) j["samples_s"] = p.samples_s;
    if (has_stats(p.stats)) j["stats"] = stats_to_json(p.stats);
    // Rates and sizes only where something was measured or imported (an error
    // before the first sample has none).
    if (has_stats(p.stats) || p.bandwidth_gbps != 0) {
        put_number(j, "bandwidth_gbps", p.bandwidth_gbps);
        put_number(j, "peak_bandwidth_gbps", p.peak_bandwidth_gbps);
        put_number(j, "bytes_per_rep", p.bytes_per_rep);
    }
    if (!p.extras.empty() || has_stats(p.stats)) j["extras"] = p.extras;
    // A variant chosen once per record (run/variant_choice.hpp) is named without a list of the others.
    if (!p.best_variant.empty()) j["best_variant"] = p.best_variant;
    if (p.variants.size() > 1) {
        json vs = json::array();
        for (const auto& v : p.variants) vs.push_back(variant_to_json(v));
        j["variants"] = std::move(vs);
    }
    if (!p.axes.empty()) j["axes"] = p.axes;
    if (!p.metrics.empty()) {
        json m = json::object();
        for (const auto& [name, metric] : p.metrics) {
            m[name] = {{"unit", metric.unit}};
            put_number(m[name], "value", metric.value);
        }
        j["metrics"] = std::move(m);
    }
    if (!p.lanes.empty()) {
        json ls = json::array();
        for (const auto& l : p.lanes) ls.push_back(lane_point_to_json(l));
        j["lanes"] = std::move(ls);
    }
    if (p.elapsed_s > 0) j["elapsed_s"] = p.elapsed_s;
    merge_unknown(j, p.unknown);
    return j;
}

Point point_from_json(const json& j) {
    Point p;
    p.bytes = whole_number(j, "bytes");
    p.status = j.at("status").get<std::string>();
    p.error = j.value("error", "");
    p.verified = j.value("verified", false);
    p.stop_reason = j.value("stop_reason", "");
    p.samples_s = j.value("samples_s", std::vector<double>{});
    if (j.contains("stats")) p.stats = stats_from_json(j.at("stats"));
    p.bandwidth_gbps = j.value("bandwidth_gbps", 0.0);
    // Absent for imported aggregates without a minimum: NaN, not a made-up 0.
    p.peak_bandwidth_gbps = j.contains("stats") ? number_or_nan(j, "peak_bandwidth_gbps") : 0.0;
    p.bytes_per_rep = j.value("bytes_per_rep", static_cast<double>(p.bytes));
    p.extras = j.value("extras", std::map<std::string, double>{});
    p.best_variant = j.value("best_variant", "");
    if (j.contains("variants"))
        for (const auto& v : j.at("variants")) p.variants.push_back(variant_from_json(v));
    if (j.contains("axes")) p.axes = j.at("axes").get<std::map<std::string, json>>();
    if (j.contains("metrics"))
        for (const auto& [name, m] : j.at("metrics").items())
            p.metrics[name] = Metric{number_or_nan(m, "value"), m.value("unit", "")};
    if (j.contains("lanes"))
        for (const auto& l : j.at("lanes")) p.lanes.push_back(lane_point_from_json(l));
    if (const auto e = j.find("elapsed_s"); e != j.end() && e->is_number()) p.elapsed_s = e->get<double>();
    p.unknown = unknown_keys(j, {"bytes", "status", "error", "verified", "stop_reason", "samples_s", "stats",
                                 "bandwidth_gbps", "peak_bandwidth_gbps", "bytes_per_rep", "extras", "best_variant",
                                 "variants", "axes", "metrics", "lanes", "elapsed_s"});
    return p;
}

}  // namespace hwcomm
