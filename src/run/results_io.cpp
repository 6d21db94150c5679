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
    if (record.context.is_object() && record.context.contains("cuda") && !file.meta.contains("cuda"))
        file.meta["cuda"] = record.context.at("cuda");
}

}  // namespace hwcomm
