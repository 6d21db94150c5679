// The run as label/value rows: machine, CPU, GPUs, versions, revision,
// options, date, and every other fact the results' meta carries (load
// average, skipped work...), so nothing recorded is hidden from the reader.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "analyze/host_read.hpp"
#include "analyze/run_time.hpp"
#include "report/html/report_model.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

std::string text_of(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_array() && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); })) {
        std::string joined;
        for (const auto& v : value) {
            if (!joined.empty()) joined += ' ';
            joined += v.get<std::string>();
        }
        return joined;
    }
    // Long number lists (the size sweep): ends and count, not every value.
    if (value.is_array() && value.size() > 6 && std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_number(); }))
        return value.front().dump() + ", " + value[1].dump() + ", \xE2\x80\xA6, " + value.back().dump() + " (" +
               std::to_string(value.size()) + " values)";
    // Objects (options): one "key = value" per line.
    if (value.is_object()) {
        std::string lines;
        for (const auto& [key, v] : value.items()) lines += (lines.empty() ? "" : "\n") + key + " = " + text_of(v);
        return lines;
    }
    return value.dump();
}

std::string gpu_line(const Vertex& v) {
    std::string line = v.id + ": " + v.name;
    if (v.gpu && v.gpu->memory_bytes) line += ", " + std::to_string(v.gpu->memory_bytes >> 30) + " GiB";
    if (v.gpu && v.gpu->cc_major) line += ", cc " + std::to_string(v.gpu->cc_major) + "." + std::to_string(v.gpu->cc_minor);
    if (v.pci) line += ", " + v.pci->to_string();
    return line;
}

}  // namespace

json run_rows(const ResultsFile& results, const Graph& graph) {
    const json& meta = results.meta;
    json rows = json::array();
    std::set<std::string> shown;
    auto add = [&](const std::string& label, const std::string& key) {
        if (meta.contains(key)) rows.push_back({label, text_of(meta[key])});
        shown.insert(key);
    };
    add("Host", "host");
    add("CPU", "cpu_model");
    std::string gpus;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu)) {
        if (!gpus.empty()) gpus += '\n';
        gpus += gpu_line(*v);
    }
    if (!gpus.empty()) rows.push_back({"GPUs", gpus});
    for (const auto& [label, key] : {std::pair{"NVIDIA driver", "driver_version"}, {"CUDA driver", "cuda_driver_version"},
                                     {"CUDA runtime", "cuda_runtime_version"}, {"NVML", "nvml_version"}, {"hwloc", "hwloc_api_version"}})
        if (auto it = graph.provenance.find(key); it != graph.provenance.end()) rows.push_back({label, it->second});
    add("Kernel", "kernel");
    add("hwcomm", "tool_version");
    add("Revision", "git_revision");
    add("Date (UTC)", "date_utc");
    add("Load average", "load_average");
    // Schema 2 keeps the run's state, load average included, under meta.run.
    if (meta.contains("run") && meta["run"].is_object()) {
        const json& run = meta["run"];
        if (run.contains("load_average") && run["load_average"].is_array()) {
            std::string load;
            for (const auto& v : run["load_average"]) load += (load.empty() ? "" : " ") + json(std::round(v.get<double>() * 100) / 100).dump();
            if (run.contains("logical_cpus")) load += " (" + run["logical_cpus"].dump() + " logical CPUs)";
            rows.push_back({"Load average", load});
        }
        if (run.contains("finished") && run["finished"] == false) rows.push_back({"Run", "not finished: " + run.dump()});
        if (const std::optional<double> wall = analyze::run_wall_s(results))
            rows.push_back({"Wall time", std::to_string(static_cast<long long>(*wall)) + " s from start to end"});
        if (std::string host = analyze::format_host_read(results); !host.empty()) {
            while (!host.empty() && host.back() == '\n') host.pop_back();
            rows.push_back({"Host memory read", host});
        }
        shown.insert("run");
    }
    add("Command", "command_line");
    add("Options", "options");
    add("Skipped", "skipped");
    shown.insert("units");
    shown.insert("methods");  // the method rows: what the page knows of each method, not a run fact
    for (const auto& [key, value] : meta.items())
        if (!shown.count(key)) rows.push_back({key, text_of(value)});
    for (const auto& note : graph.notes) rows.push_back({"Topology note", note});
    return rows;
}

}  // namespace hwcomm::report_html
