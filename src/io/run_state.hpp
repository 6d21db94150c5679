#pragma once
// The state of a run, kept in meta.run of the results file and rewritten with
// every save, so a partial file says how far it got:
//   {"planned_records", "completed_records", "started_utc", "ended_utc",
//    "finished", "load_average": [1m, 5m, 15m], "logical_cpus"}
// and the exit code of `hwcomm run` that follows from it.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm {

struct LoadAverage {
    double one = 0, five = 0, fifteen = 0;
    bool known = false;
};

// getloadavg(3): the host's run-queue averages.
LoadAverage read_load_average();

// At the start of a run or resume: planned records, finished false, the load
// and core count at this start. started_utc is kept when already there (resume).
void begin_run_state(nlohmann::json& meta, std::size_t planned_records, const LoadAverage& load, unsigned logical_cpus,
                     const std::string& now_utc);
void set_completed_records(nlohmann::json& meta, std::size_t completed);
void end_run_state(nlohmann::json& meta, bool finished, const std::string& now_utc);

// True when every planned record is in the file.
bool run_finished(const nlohmann::json& meta);

// 0: finished, every record ok; kExitRecordErrors: finished with error
// records; kExitInterrupted: not finished.
int run_exit_code(const ResultsFile& file);

// "load average 3.10 is above half of the 4 logical CPUs: 2 other processes
// run now (cc1plus, ninja) ..." or, when none runs now (`running_now`, from
// other_running_commands), that the load is from work that has ended; "" when
// the load is low.
std::string load_warning(const LoadAverage& load, unsigned logical_cpus, const std::vector<std::string>& running_now);

}  // namespace hwcomm
