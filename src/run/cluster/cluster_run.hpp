#pragma once
// `hwcomm run --mpi` under mpirun, one rank per node: every rank discovers
// and characterizes its node (node_phase), the ranks exchange what they
// found, measure the schedule's pairs (inter_node_phase), and rank 0 gathers
// everything into one cluster results file (io/cluster_results.hpp), written
// once the nodes are in and again at the end.
#include <functional>
#include <string>
#include <vector>

#include "methods/characterizer.hpp"
#include "run/cluster/pair_schedule.hpp"
#include "run/cluster/plan_text.hpp"
#include "run/progress.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

struct ClusterArgs {
    std::string output;
    std::string node_name;  // --node-name pattern (%r, %h), "" for the hostname
    ScheduleOptions schedule;
    std::vector<std::string> command_line;
    // Rank 0 only, before anything is measured: throws UsageError when the output cannot be written.
    std::function<void(const std::string&)> check_output;
    bool plan_only = false;  // --plan: print the schedule (rank 0) and stop
    RecordLine record_line;  // the log line of each finished record (report/text/record_line.hpp)
};

// Returns the exit code, the same on every rank (0, kExitRecordErrors; a
// UsageError on rank 0 is thrown there, the other ranks return kExitUsage).
int run_cluster(const Registry& registry, const RunOptions& options, const ClusterArgs& args);

}  // namespace hwcomm
