// The analysis as JSON (schema hwcomm.analyze/v1), Markdown and plain text.
#include <cstdio>
#include <map>
#include <sstream>

#include "analyze/study.hpp"
#include "analyze/summary.hpp"
#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::analyze {

using nlohmann::json;

namespace {

json verdict_json(const std::string& v) {
    if (v == "true") return true;
    if (v == "false") return false;
    return v;
}

json opt(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

std::string effect_text(const Cell& c) {
    if (!c.effect) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", *c.effect * 100);
    return buf;
}

std::string verdict_mark(const std::string& v) {
    if (v == "true") return "yes";
    if (v == "false") return "no";
    return v;
}

// Markdown table cells: a "|" would end the cell.
std::string md(std::string s) {
    for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.insert(at, "\\");
    return s;
}

std::string rule_text(const VerdictRule& r) {
    std::ostringstream out;
    out << "series compared size by size at sizes >= " << format_size(r.min_bytes);
    if (r.max_bytes) out << " and <= " << format_size(r.max_bytes);
    out << ", relative difference reduced by its " << r.statistic << " over sizes; an effect is above "
        << r.threshold * 100 << "%";
    return out.str();
}

// A CPU-only machine has none of the copies the study's tables compare: one
// line says so instead of a table of "no-data" rows (and "anomalies: none").
bool nothing_compared(const Analysis& a) {
    for (const Cell& c : a.cells)
        if (c.verdict != "no-data") return false;
    return true;
}

std::string nothing_compared_text(const Analysis& a) {
    return std::to_string(a.cells.size()) + " cells of the study's tables, all no-data: the input has none of the "
           "copies they compare (memcpy-h2d/d2h from pageable, pinned or write-combined memory, memcpy-peer between "
           "GPUs; a CPU-only machine has none)";
}

}  // namespace

json analysis_to_json(const Analysis& a) {
    json doc = {{"schema", kAnalyzeSchema},
                {"rule",
                 {{"statistic", a.rule.statistic},
                  {"min_bytes", a.rule.min_bytes},
                  {"max_bytes", a.rule.max_bytes ? json(a.rule.max_bytes) : json(nullptr)},
                  {"threshold", a.rule.threshold},
                  {"text", rule_text(a.rule)}}},
                {"inputs", a.inputs},
                {"notes", a.notes}};
    json cells = json::array();
    for (const Cell& c : a.cells) {
        json j = {{"table", c.table}, {"link", c.link}};
        if (c.link == "cpu-gpu") {
            j["host_alloc"] = c.host_alloc;
            if (c.table == "anisotropy")
                j["locality"] = c.locality;
            else
                j["direction"] = c.direction;
        } else {
            j["locality"] = c.locality;
            if (c.table != "peer_effect") j["peer"] = c.peer;
        }
        j["key"] = c.key;
        j["verdict"] = verdict_json(c.verdict);
        j["effect"] = c.effect ? json(*c.effect) : json(nullptr);
        j["evidence"] = c.evidence;
        cells.push_back(std::move(j));
    }
    doc["cells"] = std::move(cells);
    json series = json::array();
    for (const Series& s : a.series) {
        series.push_back({{"key", s.key},
                          {"source", s.source},
                          {"link", s.link},
                          {"src", s.src},
                          {"dst", s.dst},
                          {"host_alloc", opt(s.host_alloc)},
                          {"peer", opt(s.peer)},
                          {"numa", s.numa ? json(*s.numa) : json(nullptr)},
                          {"locality", opt(s.locality)},
                          {"peak_gbps", s.peak_gbps},
                          {"at_1GiB_gbps", s.at_1gib_gbps ? json(*s.at_1gib_gbps) : json(nullptr)},
                          {"n_sizes", s.n_sizes},
                          {"window_gbps", s.window_gbps ? json(*s.window_gbps) : json(nullptr)}});
    }
    doc["series"] = std::move(series);
    json eff = json::array();
    for (const Efficiency& e : a.efficiency)
        eff.push_back({{"key", e.key}, {"large_gbps", e.large_gbps}, {"limit_gbps", e.limit_gbps},
                       {"fraction", e.fraction}, {"link", e.link}});
    doc["efficiency"] = std::move(eff);
    json an = json::array();
    for (const Anomaly& x : a.anomalies) an.push_back({{"kind", x.kind}, {"text", x.text}, {"series", x.series}});
    doc["anomalies"] = std::move(an);
    return doc;
}

std::string cell_reason(const nlohmann::json& evidence) {
    const auto text = [&](const char* name) {
        const auto it = evidence.find(name);
        return it != evidence.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string reason = evidence.contains("reason") ? text("reason") : text("comparison");
    const auto within = evidence.find("within_repeat");
    if (within == evidence.end() || !within->is_object()) return reason;
    const auto number = [&](const char* name) {
        const auto it = within->find(name);
        return it != within->end() && it->is_number() ? it->get<double>() : 0.0;
    };
    const auto key = within->find("key");
    const auto percent = [&](const char* name) { return format_number(number(name) * 100, "%+.1f%%"); };
    return "not told apart: the links spread " + percent("spread") + ", no more than " +
           (key != within->end() && key->is_string() ? key->get<std::string>() : std::string("one of them")) +
           " moved between two of its measurements (" + percent("difference") + "); " + reason;
}

std::string format_analysis_markdown(const Analysis& a) {
    std::ostringstream out;
    out << "# hwcomm analyze\n\nRule: " << rule_text(a.rule) << ".\n\n";
    const bool none = nothing_compared(a);
    if (none) out << nothing_compared_text(a) << ".\n";
    else out << "| table | link | cell | verdict | effect | decided by |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const Cell& c : a.cells) {
        if (none) break;
        const std::string what = md(cell_reason(c.evidence));
        out << "| " << c.table << " | " << c.link << " | " << md(c.key.substr(c.key.find('|', c.key.find('|') + 1) + 1))
            << " | " << verdict_mark(c.verdict) << " | " << effect_text(c) << " | " << what << " |\n";
    }
    if (!a.efficiency.empty()) {
        out << "\n## Efficiency against the bottleneck\n\n| record | large GB/s | limit | % |\n| --- | --- | --- | --- |\n";
        for (const Efficiency& e : a.efficiency) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "| %.2f | %s %.2f GB/s | %.0f%% |\n", e.large_gbps, e.link.c_str(),
                          e.limit_gbps, e.fraction * 100);
            out << "| " << md(e.key) << " " << buf;
        }
    }
    out << "\n## Anomalies\n\n";
    if (a.anomalies.empty()) out << (none ? "none looked for: nothing the rule compares\n" : "none\n");
    for (const Anomaly& x : a.anomalies) out << "- **" << x.kind << "**: " << md(x.text) << "\n";
    for (const std::string& n : a.notes) out << "\nNote: " << n << "\n";
    return out.str();
}

namespace {

// How many sizes an identical-links group was compared at (all its links measured them).
std::string sizes_compared(int sizes) {
    if (sizes <= 0) return "";
    return sizes == 1 ? " at 1 size" : " at " + std::to_string(sizes) + " sizes";
}

// A group's links measured twice, and a spread within how far one of them moved.
std::string twice_text(const nlohmann::json& group) {
    std::string t;
    if (const int n = group.value("measured_twice", 0); n > 0) t += ", " + std::to_string(n) + " measured twice";
    if (group.value("within_repeat", false) && group.contains("repeat") && group["repeat"].is_object())
        t += ", within one link's repeat (" +
             format_number(group["repeat"].value("difference", 0.0) * 100, "%+.1f%%") + ")";
    return t;
}

}  // namespace

std::string format_analysis_text(const Analysis& a) {
    std::ostringstream out;
    out << "rule: " << rule_text(a.rule) << "\n\n";
    char line[256];
    const bool none = nothing_compared(a);
    std::snprintf(line, sizeof line, "%-44s %-8s %8s  %s\n", "cell", "verdict", "effect", "decided by");
    out << (none ? nothing_compared_text(a) + "\n" : std::string(line));
    for (const Cell& c : a.cells) {
        if (none) break;
        std::string what = c.evidence.contains("reason") ? c.evidence["reason"].get<std::string>() : "";
        if (what.empty() && c.evidence.contains("per_pair") && !c.evidence["per_pair"].empty())
            what = std::to_string(c.evidence["per_pair"].size()) + " pairs";
        if (what.empty() && c.evidence.contains("per_gpu")) what = std::to_string(c.evidence["per_gpu"].size()) + " GPUs";
        if (what.empty() && c.evidence.contains("groups")) {
            for (const auto& [name, g] : c.evidence["groups"].items())
                what += (what.empty() ? "" : "; ") + name + ": " + std::to_string(g.value("n", 0)) + " links" +
                        sizes_compared(g.value("sizes", 0)) + twice_text(g);
        }
        std::snprintf(line, sizeof line, "%-44s %-8s %8s  %s\n", c.key.c_str(), verdict_mark(c.verdict).c_str(),
                      effect_text(c).c_str(), what.c_str());
        out << line;
    }
    out << "\nanomalies:\n";
    if (a.anomalies.empty()) out << (none ? "  none looked for: nothing the rule compares\n" : "  none\n");
    std::map<std::string, int> shown;
    for (const Anomaly& x : a.anomalies) {
        // A few of each kind on screen; --json and --markdown list them all.
        if (++shown[x.kind] <= 3) out << "  " << x.kind << ": " << x.text << "\n";
    }
    for (const auto& [kind, n] : shown)
        if (n > 3) out << "  " << kind << ": " << n - 3 << " more (see --json or --markdown)\n";
    for (const std::string& n : a.notes) out << "note: " << n << "\n";
    return out.str();
}

}  // namespace hwcomm::analyze
