#include "import/commscope.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "core/input_file.hpp"
#include "core/json_parse.hpp"
#include "import/benchmark_names.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::import {

using nlohmann::json;

namespace {

// Seconds per unit of Google Benchmark's time_unit.
double unit_seconds(const std::string& unit) {
    if (unit == "ns") return 1e-9;
    if (unit == "us") return 1e-6;
    if (unit == "ms") return 1e-3;
    if (unit == "s") return 1.0;
    return 0;
}

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// The fields of an entry that Google Benchmark writes, each of its own type;
// "" or what is wrong ("'time_unit' is number"): such an entry is dropped and listed.
std::string wrong_field_type(const json& b) {
    static const std::pair<const char*, bool (json::*)() const noexcept> kTypes[] = {
        {"error_occurred", &json::is_boolean}, {"error_message", &json::is_string}, {"time_unit", &json::is_string},
        {"real_time", &json::is_number}, {"repetitions", &json::is_number_unsigned}};
    for (const auto& [key, is] : kTypes)
        if (const auto it = b.find(key); it != b.end() && !((*it).*is)())
            return std::string("'") + key + "' is a " + it->type_name();
    return "";
}

}  // namespace

void Importer::add_file(const std::string& path) {
    // The guarded input path: a pipe, a device, a file over the cap or a gzip
    // bomb is skipped with the reason, never waited on or read without end;
    // the nesting limit keeps a 100,000-level "context" off the stack.
    json doc;
    try {
        const std::string text = read_regular_input_file(path, "Comm|Scope JSON", kMaxJsonFileBytes);
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
            report_.skipped.emplace_back(path, "empty file");
            return;
        }
        doc = parse_json_text(text, path);
    } catch (const InputError& e) {
        report_.skipped.emplace_back(path, e.reason());
        return;
    }
    add_document(doc, path);
}

void Importer::add_document(const json& doc, const std::string& label) {
    if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
        report_.skipped.emplace_back(label, "not Google Benchmark JSON (no \"benchmarks\" array)");
        return;
    }
    if (doc["benchmarks"].empty()) {
        report_.skipped.emplace_back(label, "no benchmarks in the file");
        return;
    }
    ++report_.files_read;
    if (doc.contains("context")) contexts_.push_back({{"file", label}, {"context", doc["context"]}});
    for (const json& b : doc["benchmarks"]) {
        if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) {
            report_.problems.emplace_back(label, "an entry without a name");
            continue;
        }
        const std::string name = b["name"].get<std::string>();
        if (const std::string wrong = wrong_field_type(b); !wrong.empty()) {
            report_.problems.emplace_back(label, name + ": " + wrong);
            continue;
        }
        const BenchmarkName parts = split_benchmark_name(name);
        std::string why;
        const auto mapped = map_benchmark(parts, &why);
        if (!mapped) {
            if (why.rfind("unknown benchmark", 0) == 0)
                ++report_.unknown[parts.base];
            else
                report_.problems.emplace_back(label, name + ": " + why);
            continue;
        }
        if (!mapped->note.empty() &&
            std::find(report_.notes.begin(), report_.notes.end(), mapped->note) == report_.notes.end())
            report_.notes.push_back(mapped->note);
        const std::string key = record_key(mapped->method, mapped->src, mapped->dst, mapped->params);
        Curve& curve = curves_[key];
        if (curve.record.key.empty()) {
            curve.record.key = key;
            curve.record.method = mapped->method;
            curve.record.src = mapped->src;
            curve.record.dst = mapped->dst;
            curve.record.params = mapped->params;
            curve.record.provenance = {{"kind", "imported"}, {"tool", "comm|scope"}, {"benchmark", parts.base},
                                       {"curve_statistic", "mean"}};
            if (!mapped->note.empty()) curve.record.provenance["note"] = mapped->note;
        }
        if (std::find(curve.files.begin(), curve.files.end(), label) == curve.files.end()) curve.files.push_back(label);
        SizeData& size = curve.sizes[mapped->bytes];
        size.bytes_per_rep = mapped->bytes_per_rep;
        if (b.value("error_occurred", false)) {
            size.error = b.value("error_message", std::string("benchmark reported an error"));
            continue;
        }
        const double unit = unit_seconds(b.value("time_unit", std::string("ns")));
        if (!b.contains("real_time") || !b["real_time"].is_number() || unit == 0) {
            report_.problems.emplace_back(label, name + ": no real_time in a known time unit");
            continue;
        }
        const double t = b["real_time"].get<double>() * unit;
        ++report_.entries;
        if (parts.aggregate.empty()) {
            if (t > 0) size.reps_s.push_back(t);
        } else if (parts.aggregate == "mean") {
            size.mean_s = t;
            size.repetitions = b.value("repetitions", std::size_t{0});
        } else if (parts.aggregate == "median") {
            size.median_s = t;
        } else if (parts.aggregate == "stddev") {  // Google Benchmark writes bytes: 0 for it
            size.stddev_s = t;
        }
    }
}

ResultsFile Importer::finish(const json& topology) {
    ResultsFile out;
    out.meta = {{"tool", "hwcomm import"},
                {"imported_from", "comm|scope (Google Benchmark JSON)"},
                {"curve_statistic", "mean of the repetitions (the study's plots); median and stddev kept"},
                {"sources", contexts_},
                {"units", {{"bandwidth", "GB/s = 1e9 bytes/s"}, {"time", "s"}}}};
    out.topology = topology;
    for (auto& [key, curve] : curves_) {
        Record r = curve.record;
        r.provenance["files"] = curve.files;
        for (auto& [bytes, s] : curve.sizes) {
            Point p;
            p.bytes = bytes;
            p.bytes_per_rep = s.bytes_per_rep;
            p.verified = false;  // Comm|Scope does not check the copied data
            if (!s.error.empty()) {
                p.status = "error";
                p.error = s.error;
                r.points.push_back(std::move(p));
                continue;
            }
            if (!s.reps_s.empty()) {
                p.stats = compute_stats(s.reps_s);
                p.samples_s = s.reps_s;
            } else {
                p.stats = SampleStats{};
                p.stats.min = p.stats.q1 = p.stats.q3 = p.stats.max = kAbsent;
                p.stats.ci95_low = p.stats.ci95_high = kAbsent;
                p.stats.median = p.stats.mean = p.stats.stdev = p.stats.cv = kAbsent;
                p.stats.n = s.repetitions;
            }
            if (s.mean_s > 0) p.stats.mean = s.mean_s;
            if (s.median_s > 0) p.stats.median = s.median_s;
            if (s.stddev_s >= 0) p.stats.stdev = s.stddev_s;
            if (p.stats.mean > 0 && p.stats.stdev >= 0) p.stats.cv = p.stats.stdev / p.stats.mean;
            const double curve_s = p.stats.mean > 0 ? p.stats.mean : p.stats.median;
            if (!(curve_s > 0)) {
                report_.problems.emplace_back(curve.files.empty() ? std::string() : curve.files.front(),
                                              key + " @" + std::to_string(bytes) + " B: no usable time");
                continue;
            }
            p.bandwidth_gbps = s.bytes_per_rep / curve_s / 1e9;
            if (p.stats.min > 0) p.peak_bandwidth_gbps = s.bytes_per_rep / p.stats.min / 1e9;
            r.points.push_back(std::move(p));
        }
        out.records.push_back(std::move(r));
    }
    return out;
}

std::string format_report(const ImportReport& report) {
    std::ostringstream out;
    out << "imported " << report.entries << " benchmark entries from " << report.files_read << " files\n";
    if (!report.skipped.empty()) {
        out << "skipped " << report.skipped.size() << " files:\n";
        for (const auto& [file, why] : report.skipped) out << "  " << file << ": " << why << "\n";
    }
    if (!report.unknown.empty()) {
        out << "unknown benchmark names (not imported):\n";
        for (const auto& [name, n] : report.unknown) out << "  " << name << " (" << n << " entries)\n";
    }
    if (!report.problems.empty()) {
        out << report.problems.size() << " entries dropped:\n";
        for (std::size_t i = 0; i < report.problems.size() && i < 20; ++i)
            out << "  " << report.problems[i].first << ": " << report.problems[i].second << "\n";
        if (report.problems.size() > 20) out << "  ...\n";
    }
    for (const std::string& n : report.notes) out << "note: " << n << "\n";
    return out.str();
}

std::string why_nothing_imported(const ImportReport& report) {
    // One line: each file named once, with its first reasons.
    std::vector<std::pair<std::string, std::vector<std::string>>> by_file;
    const auto add = [&](const std::string& file, const std::string& why) {
        if (by_file.empty() || by_file.back().first != file) by_file.push_back({file, {}});
        by_file.back().second.push_back(why);
    };
    for (const auto& [file, why] : report.skipped) add(file, why);
    for (const auto& [file, why] : report.problems) add(file, why);
    std::string out;
    for (std::size_t f = 0; f < by_file.size() && f < 3; ++f) {
        const auto& [file, reasons] = by_file[f];
        out += (out.empty() ? "" : "; ") + file + ": " + reasons.front();
        if (reasons.size() > 1) out += " (and " + std::to_string(reasons.size() - 1) + " more entries)";
    }
    if (by_file.size() > 3) out += "; and " + std::to_string(by_file.size() - 3) + " more files";
    for (const auto& [name, n] : report.unknown)
        out += (out.empty() ? "" : "; ") + std::string("unknown benchmark ") + name + " (" + std::to_string(n) + " entries)";
    return out.empty() ? "no benchmark entries in the input" : out;
}

}  // namespace hwcomm::import
