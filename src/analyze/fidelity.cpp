#include "analyze/fidelity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "analyze/summary.hpp"
#include "catalog/row_json.hpp"
#include "core/error.hpp"
#include "core/json_parse.hpp"

namespace hwcomm::analyze {

using nlohmann::json;

TargetsFile targets_from_json(const json& doc) {
    if (!doc.is_object() || doc.value("schema", json()) != "hwcomm-targets")
        throw std::runtime_error("not a targets file (schema is not \"hwcomm-targets\")");
    if (doc.value("version", 0) != 1) throw std::runtime_error("unsupported targets file version");
    TargetsFile f;
    f.machine = doc.value("machine", "");
    f.source = doc.value("source", "");
    f.tolerance = doc.value("tolerance", 0.02);
    if (doc.contains("gpus") && doc["gpus"].is_object()) {
        f.gpu_count = doc["gpus"].value("count", 0);
        f.gpu_model = doc["gpus"].value("model", "");
    } else {  // "2x NVIDIA H200 (NVLink ...)"
        const auto x = f.machine.find("x ");
        if (x != std::string::npos && x > 0 && f.machine.find_first_not_of("0123456789") == x) {
            f.gpu_count = std::stoi(f.machine.substr(0, x));
            const std::string rest = f.machine.substr(x + 2);
            const auto end = rest.find(" (");
            f.gpu_model = end == std::string::npos ? rest : rest.substr(0, end);
        }
    }
    if (!doc.contains("targets") || !doc["targets"].is_array()) throw std::runtime_error("targets file has no targets");
    for (const json& j : doc["targets"]) {
        Target t;
        t.id = j.at("id").get<std::string>();
        t.label = j.value("label", t.id);
        t.method = j.at("method").get<std::string>();
        t.metric = j.at("metric").get<std::string>();
        t.timing = j.value("timing", "");
        t.params = j.value("params", std::map<std::string, std::string>{});
        t.value = j.at("value").get<double>();
        t.low = t.high = t.value;
        if (j.contains("range")) {
            t.low = j["range"].at(0).get<double>();
            t.high = j["range"].at(1).get<double>();
        }
        t.bytes = j.value("bytes", std::uint64_t{0});
        if (t.metric == "gbps_at_bytes" && t.bytes == 0) throw std::runtime_error("target " + t.id + ": no bytes");
        if (t.metric != "peak_gbps" && t.metric != "small_latency_us" && t.metric != "gbps_at_bytes" &&
            t.metric.rfind("extra_peak:", 0) != 0)
            throw std::runtime_error("target " + t.id + ": unknown metric " + t.metric);
        f.targets.push_back(std::move(t));
    }
    return f;
}

TargetsFile load_targets_file(const std::string& path) {
    const json doc = parse_json_file(path, "targets file");  // the guarded input path
    try {
        return targets_from_json(doc);
    } catch (const json::exception& e) {
        throw UsageError(path + ": malformed targets file: " + json_error_text(e));
    } catch (const std::logic_error& e) {  // std::stoi of a machine name's count
        throw UsageError(path + ": malformed targets file: " + e.what());
    } catch (const std::runtime_error& e) {
        throw UsageError(path + ": " + e.what());
    }
}

const char* to_string(Verdict v) {
    switch (v) {
    case Verdict::Within: return "within";
    case Verdict::Beats: return "BEATS";
    case Verdict::Misses: return "MISSES";
    case Verdict::NoData: return "no data";
    }
    return "?";
}

bool lower_is_better(const std::string& metric) { return metric == "small_latency_us"; }

Verdict judge(double measured, double low, double high, double tolerance, bool lower_better, double* deviation) {
    double dev = 0;  // the number's relative distance from the range, sign of (measured - figure)
    if (measured > high) dev = (measured - high) / high;
    if (measured < low) dev = (measured - low) / low;
    if (deviation) *deviation = dev;
    const double better = lower_better ? -dev : dev;
    if (better > tolerance) return Verdict::Beats;
    if (better < -tolerance) return Verdict::Misses;
    return Verdict::Within;
}

MachineCheck check_machine(const ResultsFile& results, const TargetsFile& targets) {
    MachineCheck check;
    if (targets.gpu_count > 0) check.targets = std::to_string(targets.gpu_count) + "x " + targets.gpu_model;
    int count = 0;
    std::string model;
    if (results.topology.is_object() && results.topology.contains("vertices"))
        for (const json& v : results.topology["vertices"])
            if (v.value("kind", "") == "gpu") {
                ++count;
                if (model.empty() && v.contains("gpu")) model = v["gpu"].value("model", "");
            }
    const bool graph_known = results.topology.is_object() && results.topology.contains("vertices");
    if (count > 0) check.results = std::to_string(count) + "x " + model;
    else if (graph_known) check.results = "no GPU";  // a CPU-only machine is another machine, not an unknown one
    check.same = check.targets.empty() || check.results.empty() || check.targets == check.results;
    return check;
}

bool fidelity_failed(const std::vector<Comparison>& rows, const MachineCheck& machine) {
    if (!machine.same) return true;
    bool any_data = rows.empty();
    for (const Comparison& c : rows) {
        if (c.verdict == Verdict::Misses) return true;
        any_data = any_data || c.verdict != Verdict::NoData;
    }
    return !any_data;  // nothing compared is no evidence of fidelity
}

namespace {

bool params_match(const Record& r, const Target& t) {
    for (const auto& [k, v] : t.params) {
        const auto it = r.params.find(k);
        if (it == r.params.end() || it->second != v) return false;
    }
    return true;
}

std::optional<double> metric_of(const Record& r, const MethodRow* row, const Target& t) {
    if (r.status != "ok") return std::nullopt;
    if (t.metric == "peak_gbps") return summarize(r, row).peak_gbps;
    if (t.metric == "small_latency_us") return summarize(r, row).small_latency_us;
    std::optional<double> best;
    for (const Point& p : r.points) {
        if (p.status != "ok" || p.stats.n == 0) continue;
        if (t.metric == "gbps_at_bytes") {
            if (p.bytes == t.bytes) best = p.bandwidth_gbps;
        } else {  // extra_peak:<key>
            const auto it = p.extras.find(t.metric.substr(11));
            if (it != p.extras.end() && (!best || it->second > *best)) best = it->second;
        }
    }
    return best;
}

std::string timing_of(const Record& r) {
    return r.context.is_object() && r.context.contains("timing_mode") && r.context["timing_mode"].is_string()
               ? r.context["timing_mode"].get<std::string>()
               : std::string{};
}

}  // namespace

std::vector<Comparison> compare(const ResultsFile& results, const TargetsFile& targets) {
    std::vector<Comparison> out;
    const MethodCatalog catalog = catalog_for(results.meta);
    for (const Target& t : targets.targets) {
        Comparison c;
        c.target = t;
        const bool lower = lower_is_better(t.metric);
        // Prefer records in the target's timing mode; fall back to any.
        for (int pass = 0; pass < 2 && !c.measured; ++pass) {
            for (const Record& r : results.records) {
                if (r.method != t.method || !params_match(r, t)) continue;
                if (pass == 0 && !t.timing.empty() && timing_of(r) != t.timing) continue;
                const auto m = metric_of(r, catalog.find(r.method), t);
                if (!m) continue;
                if (!c.measured || (lower ? *m < *c.measured : *m > *c.measured)) {
                    c.measured = m;
                    c.record_key = r.key;
                    c.note = pass == 1 && !t.timing.empty()
                                 ? "measured in " + timing_of(r) + " mode; the figure is " + t.timing + " timing"
                                 : std::string{};
                }
            }
            if (t.timing.empty()) break;
        }
        if (c.measured) c.verdict = judge(*c.measured, t.low, t.high, targets.tolerance, lower, &c.deviation);
        out.push_back(std::move(c));
    }
    return out;
}

std::string format_comparisons(const std::vector<Comparison>& rows, const TargetsFile& targets,
                               const MachineCheck& machine) {
    std::ostringstream out;
    if (!machine.same)
        out << "MACHINE DIFFERS: the figures are for " << machine.targets << ", the results come from "
            << machine.results << "\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-26s %14s %12s  %-8s %8s  %s\n", "target", "figure", "hwcomm", "verdict",
                  "dev", "record");
    out << "Fidelity against " << (targets.machine.empty() ? "the reference" : targets.machine) << " (tolerance "
        << targets.tolerance * 100 << "%)\n"
        << line;
    for (const Comparison& c : rows) {
        const bool lat = lower_is_better(c.target.metric);
        const char* unit = lat ? "us" : "GB/s";
        char figure[64], measured[64], dev[32];
        if (c.target.low != c.target.high)
            std::snprintf(figure, sizeof figure, "%g-%g %s", c.target.low, c.target.high, unit);
        else
            std::snprintf(figure, sizeof figure, "%g %s", c.target.value, unit);
        if (c.measured)
            std::snprintf(measured, sizeof measured, "%.2f %s", *c.measured, unit);
        else
            std::snprintf(measured, sizeof measured, "-");
        if (c.measured)
            std::snprintf(dev, sizeof dev, "%+.1f%%", c.deviation * 100);
        else
            std::snprintf(dev, sizeof dev, "-");
        std::snprintf(line, sizeof line, "%-26s %14s %12s  %-8s %8s  %s%s%s\n", c.target.label.c_str(), figure,
                      measured, to_string(c.verdict), dev, c.record_key.c_str(), c.note.empty() ? "" : "  ",
                      c.note.c_str());
        out << line;
    }
    if (!rows.empty() && std::all_of(rows.begin(), rows.end(), [](const Comparison& c) { return c.verdict == Verdict::NoData; }))
        out << "NO DATA for any target: nothing was compared\n";
    return out.str();
}

}  // namespace hwcomm::analyze
