#include "io/results_meta.hpp"
#include "hwcomm_revision.hpp"

#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "io/endpoint_ids.hpp"
#include "io/fingerprint.hpp"
#include "io/results_file.hpp"
#include "platform/host_info.hpp"

namespace hwcomm {

nlohmann::json make_meta(const std::vector<std::string>& command_line, const nlohmann::json& options) {
    const HostInfo host = read_host_info();
    nlohmann::json meta{{"tool_version", HWCOMM_VERSION},
                        {"git_revision", HWCOMM_GIT_REVISION},
                        {"command_line", command_line},
                        {"host", host.hostname},
                        {"date_utc", host.date_utc},
                        {"kernel", host.kernel},
                        {"cpu_model", host.cpu_model},
                        {"units", {{"bandwidth", "GB/s = 1e9 bytes/s"}, {"time", "s"}}},
                        {"options", options}};
    set_meta_nodes(meta, {host.hostname});
    return meta;
}

nlohmann::json this_machine_fingerprint(const Graph& graph) {
    return machine_fingerprint(graph, read_host_info().cpu_model);
}

ResultsFile new_results(const Graph& graph, const std::vector<std::string>& command_line,
                        const nlohmann::json& options) {
    ResultsFile file;
    file.meta = make_meta(command_line, options);
    file.meta["fingerprint"] = machine_fingerprint(graph, file.meta.value("cpu_model", ""));
    // Driver and runtime versions that discovery found (NVML, CUDA), when present.
    for (const char* key : {"driver_version", "nvml_version", "cuda_driver_version", "cuda_runtime_version"})
        if (auto it = graph.provenance.find(key); it != graph.provenance.end()) file.meta["gpu_software"][key] = it->second;
    file.topology = graph_to_json(graph);
    return file;
}

ResultsFile load_for_resume(const std::string& path, const nlohmann::json& this_fingerprint) {
    ResultsFile file;
    try {
        file = load_results_file(path);
    } catch (const std::exception& e) {
        throw UsageError(std::string("--resume: ") + e.what());
    }
    // A hand-edited or corrupted meta (an array, null) is bad input, not an internal error.
    if (!file.meta.is_object()) throw UsageError("--resume: " + path + ": meta must be an object");
    if (!file.meta.contains("options") || !file.meta.at("options").is_object())
        throw UsageError("--resume: " + path + " has no meta.options to resume with");
    const std::string difference =
        fingerprint_difference(this_fingerprint, file.meta.value("fingerprint", nlohmann::json::object()));
    if (!difference.empty()) throw UsageError("resume refused: " + difference + " (" + path + " untouched)");
    return file;
}

void stamp_measured_provenance(Record& record) {
    if (record.provenance.empty())
        record.provenance = {{"kind", "measured"}, {"tool", "hwcomm"}, {"revision", HWCOMM_GIT_REVISION}};
}

void absorb_record_meta(ResultsFile& file, const Record& record) {
    if (!record.context.is_object() || file.meta.contains("cuda")) return;
    // CUDA sessions name the driver and runtime they ran with under "runtime".
    for (const char* key : {"cuda", "runtime"})
        if (record.context.contains(key)) {
            file.meta["cuda"] = record.context.at(key);
            return;
        }
}

}  // namespace hwcomm
