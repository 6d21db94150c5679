#include "io/run_state.hpp"

#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"

namespace hwcomm {

LoadAverage read_load_average() {
    double v[3] = {};
    LoadAverage l;
    if (getloadavg(v, 3) == 3) l = {v[0], v[1], v[2], true};
    return l;
}

void begin_run_state(nlohmann::json& meta, std::size_t planned_records, const LoadAverage& load, unsigned logical_cpus,
                     const std::string& now_utc) {
    nlohmann::json& run = meta["run"];
    if (!run.is_object()) run = nlohmann::json::object();
    run["planned_records"] = planned_records;
    if (!run.contains("completed_records")) run["completed_records"] = 0;
    if (!run.contains("started_utc")) run["started_utc"] = now_utc;
    run["ended_utc"] = nullptr;
    run["finished"] = false;
    run["load_average"] = load.known ? nlohmann::json{load.one, load.five, load.fifteen} : nlohmann::json(nullptr);
    run["logical_cpus"] = logical_cpus;
}

void set_completed_records(nlohmann::json& meta, std::size_t completed) {
    meta["run"]["completed_records"] = completed;
}

void end_run_state(nlohmann::json& meta, bool finished, const std::string& now_utc) {
    meta["run"]["ended_utc"] = now_utc;
    meta["run"]["finished"] = finished;
}

bool run_finished(const nlohmann::json& meta) {
    return meta.is_object() && meta.contains("run") && meta.at("run").value("finished", false);
}

int run_exit_code(const ResultsFile& file) {
    if (!run_finished(file.meta)) return kExitInterrupted;
    for (const auto& r : file.records)
        if (r.status == "error") return kExitRecordErrors;  // "skipped": the machine lacks it, not a failure
    return 0;
}

std::string load_warning(const LoadAverage& load, unsigned logical_cpus, const std::vector<std::string>& running_now) {
    if (!load.known || logical_cpus == 0 || load.one <= logical_cpus / 2.0) return "";
    char buf[200];
    std::snprintf(buf, sizeof buf, "load average %.2f is above half of the %u logical CPUs", load.one, logical_cpus);
    std::string text = buf;
    if (running_now.empty())
        return text + ", but no other process runs now: the load is from work that has ended (a build just "
                      "before?), and the average decays within a minute";
    text += ": " + std::to_string(running_now.size()) + " other process" + (running_now.size() > 1 ? "es run" : " runs") +
            " now (";
    for (std::size_t i = 0; i < running_now.size() && i < 4; ++i) text += (i ? ", " : "") + running_now[i];
    return text + (running_now.size() > 4 ? ", ...)" : ")") + " and may disturb the measurements";
}

}  // namespace hwcomm
