#include "cli/cmd_run_cluster.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "platform/host_info.hpp"
#include "run/cluster/node_names.hpp"
#include "run/cluster/plan_text.hpp"
#ifdef HWCOMM_HAVE_MPI
#include "run/cluster/cluster_run.hpp"
#include "report/text/record_line.hpp"
#endif

namespace hwcomm::cli {

void add_cluster_options(CLI::App& run, ClusterCliArgs& args) {
    const char* group = "Cluster (docs/cluster.md)";
    run.add_flag("--mpi", args.mpi,
                 "under mpirun, one rank per node: characterize every node, then measure between nodes (mpi-host, "
                 "mpi-gpu) into one results file written by rank 0")
        ->group(group);
    run.add_option("--node-name", args.node_name,
                   "this rank's node name: %r is the rank, %h the hostname (default: the hostname)")
        ->group(group);
    run.add_flag("--plan", args.plan,
                 "print what the run would measure and how long it should take, measure nothing: this node's records "
                 "by method and link class (docs/cli.md); with --nodes N or --mpi the cluster's pair schedule")
        ->group(group);
    run.add_option("--nodes", args.nodes, "with --plan outside mpirun: the number of nodes to plan for")
        ->check(CLI::Range(1, 1 << 20))
        ->group(group);
    run.add_option("--all-pairs-max-nodes", args.schedule.all_pairs_max_nodes,
                   "up to this many nodes, every pair; above, a ring plus random pairs (default 8)")
        ->check(CLI::Range(0, 1 << 20))
        ->group(group);
    run.add_option("--random-partners", args.schedule.random_partners,
                   "ring + random: random partners per node (default 2)")
        ->check(CLI::Range(0, 64))
        ->group(group);
    run.add_option("--schedule-seed", args.schedule.seed, "ring + random: the seed of the random pairs (default 1)")
        ->group(group);
}

int run_cluster_command(const ClusterCliArgs& args, const RunOptions& options, const std::string& output,
                        const std::function<void(const std::string&)>& check_output) {
    if (!args.mpi && !args.plan) throw UsageError("--node-name and --nodes go with --mpi or --plan");
    if (args.mpi && args.nodes) throw UsageError("--nodes is for --plan outside mpirun; under mpirun the ranks are the nodes");
    if (!args.mpi) {
        if (!args.nodes) throw UsageError("--plan needs --nodes N (or --mpi under mpirun)");
        std::vector<std::string> names;
        // Once: read_host_info reads /proc/cpuinfo, and --nodes goes up to 2^20 (issue 25: 27 s).
        const std::string hostname = read_host_info().hostname;
        const std::string pattern = args.node_name.empty() ? "node%r" : args.node_name;
        for (int r = 0; r < args.nodes; ++r) names.push_back(expand_node_name(pattern, r, hostname));
        std::cout << describe_cluster_plan(make_pair_schedule(args.nodes, args.schedule), unique_node_names(names),
                                           options);
        return 0;
    }
#ifdef HWCOMM_HAVE_MPI
    ClusterArgs cluster;
    cluster.output = output;
    cluster.node_name = args.node_name;
    cluster.schedule = args.schedule;
    cluster.command_line = process_command_line();
    cluster.check_output = check_output;
    cluster.plan_only = args.plan;
    const Registry registry = build_registry();
    // Each node's records against the node's own graph are printed without one: default cache sizes.
    cluster.record_line = [&registry](const Record& r, std::size_t index, std::size_t total) {
        return text::record_line(r, registry.catalog().find(r.method), nullptr, index, total);
    };
    return run_cluster(registry, options, cluster);
#else
    (void)output;
    (void)check_output;
    throw UsageError("--mpi: this build has no MPI (configure with -DHWCOMM_MPI=ON; Debian/Ubuntu: libopenmpi-dev)");
#endif
}

}  // namespace hwcomm::cli
