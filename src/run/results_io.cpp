#include "run/results_io.hpp"

#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "platform/atomic_file.hpp"
#include "platform/host_info.hpp"

namespace hwcomm {

nlohmann::json make_meta(const std::vector<std::string>& command_line, const RunOptions& options) {
    const HostInfo host = read_host_info();
    return {{"tool_version", HWCOMM_VERSION},
            {"git_revision", HWCOMM_GIT_REVISION},
            {"command_line", command_line},
            {"host", host.hostname},
            {"date_utc", host.date_utc},
            {"kernel", host.kernel},
            {"cpu_model", host.cpu_model},
            {"units", {{"bandwidth", "GB/s = 1e9 bytes/s"}, {"time", "s"}}},
            {"options", run_options_to_json(options)}};
}

ResultsFile new_results(const Graph& graph, const std::vector<std::string>& command_line, const RunOptions& options) {
    ResultsFile file;
    file.meta = make_meta(command_line, options);
    // Driver and runtime versions that discovery found (NVML, CUDA), when present.
    for (const char* key : {"driver_version", "nvml_version", "cuda_driver_version", "cuda_runtime_version"})
        if (auto it = graph.provenance.find(key); it != graph.provenance.end()) file.meta["gpu_software"][key] = it->second;
    file.topology = graph_to_json(graph);
    return file;
}

void save_results(const std::string& path, const ResultsFile& file) {
    write_file_atomically(path, results_to_json(file).dump(1) + "\n");
}

ResultsFile load_for_resume(const std::string& path, const std::string& this_host) {
    ResultsFile file;
    try {
        file = load_results_file(path);
    } catch (const std::exception& e) {
        throw UsageError(std::string("--resume: ") + e.what());
    }
    // A hand-edited or corrupted meta (an array, null, a number as host) is bad input, not an internal error.
    if (!file.meta.is_object() || !file.meta.value("host", nlohmann::json("")).is_string())
        throw UsageError("--resume: " + path + ": meta must be an object with a string host");
    const std::string host = file.meta.value("host", "");
    if (host != this_host)
        throw UsageError("--resume: " + path + " was measured on host '" + host + "', this is '" + this_host + "'");
    if (!file.meta.contains("options"))
        throw UsageError("--resume: " + path + " has no meta.options to resume with");
    try {
        run_options_from_json(file.meta.at("options"));
    } catch (const std::exception& e) {
        throw UsageError("--resume: " + path + ": " + e.what());
    }
    return file;
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
