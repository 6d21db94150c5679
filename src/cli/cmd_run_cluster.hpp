#pragma once
// The cluster options of `hwcomm run` (--mpi, --node-name, --plan, --nodes
// and the schedule's knobs) and what they run (docs/cluster.md). In a build
// without MPI, --mpi is a one-line usage error; --plan --nodes N works in
// every build.
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "run/cluster/pair_schedule.hpp"
#include "run/run_options.hpp"

namespace hwcomm::cli {

struct ClusterCliArgs {
    bool mpi = false;
    bool plan = false;
    int nodes = 0;
    std::string node_name;
    ScheduleOptions schedule;

    bool given() const { return mpi || plan || nodes || !node_name.empty(); }
};

void add_cluster_options(CLI::App& run, ClusterCliArgs& args);

// `output`: the results file; check_output throws UsageError when it cannot be written.
int run_cluster_command(const ClusterCliArgs& args, const RunOptions& options, const std::string& output,
                        const std::function<void(const std::string&)>& check_output);

}  // namespace hwcomm::cli
