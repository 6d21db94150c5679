#include "run/cluster/cluster_run.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <thread>

#include "core/error.hpp"
#include "discover/discover.hpp"
#include "io/cluster_results.hpp"
#include "io/endpoint_ids.hpp"
#include "io/results_json.hpp"
#include "io/run_state.hpp"
#include "methods/mpi/pair_session.hpp"
#include "platform/host_info.hpp"
#include "platform/mpi/communicator.hpp"
#include "platform/mpi/host_identity.hpp"
#include "platform/mpi/mpi_environment.hpp"
#include "platform/mpi/mpi_library.hpp"
#include "run/cluster/cluster_filters.hpp"
#include "run/cluster/inter_node_phase.hpp"
#include "run/cluster/local_ends.hpp"
#include "run/cluster/node_names.hpp"
#include "run/cluster/node_phase.hpp"
#include "run/device_loss.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm {

namespace {

using nlohmann::json;

// A usage error found on one rank ends every rank: rank 0 throws it (one
// line, exit 2), the others return kExitUsage quietly.
std::optional<int> agree_on_usage(const Communicator& world, const std::string& mine) {
    std::string first;
    for (const std::string& e : world.allgather_strings(mine))
        if (first.empty()) first = e;
    if (first.empty()) return std::nullopt;
    if (world.rank() == 0) throw UsageError(first);
    return kExitUsage;
}

// This rank's index among the ranks of its host (its GPU by default).
int local_rank(const Communicator& world) {
    MPI_Comm host = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split_type(world.raw(), MPI_COMM_TYPE_SHARED, world.rank(), MPI_INFO_NULL, &host),
              "MPI_Comm_split_type");
    int r = 0;
    MPI_Comm_rank(host, &r);
    MPI_Comm_free(&host);
    return r;
}

int gpu_for_rank(const Graph& graph, int local) {
    int cuda_gpus = 0;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu)) cuda_gpus += v->gpu && v->gpu->cuda_ordinal >= 0;
    return cuda_gpus ? local % cuda_gpus : -1;
}

std::vector<std::string> nic_ids(const Graph& graph) {
    std::vector<std::string> out;
    for (const Vertex* v : graph.of_kind(VertexKind::NetworkInterface)) out.push_back(v->id);
    return out;
}

// What every rank tells the others after its own characterization.
struct RankFacts {
    std::string name, hostname, host_id, status, error;
    std::vector<std::string> nics;
    LocalEnds ends;
};

json facts_to_json(const RankFacts& f) {
    return {{"name", f.name}, {"hostname", f.hostname}, {"host_id", f.host_id}, {"status", f.status},
            {"error", f.error}, {"nics", f.nics}, {"ends", local_ends_to_json(f.ends)}};
}

RankFacts facts_from_json(const json& j) {
    const auto text = [&j](const char* key) { return j.at(key).get<std::string>(); };
    return {text("name"),  text("hostname"), text("host_id"), text("status"), text("error"),
            j.at("nics").get<std::vector<std::string>>(), local_ends_from_json(j.at("ends"))};
}

std::vector<ClusterNode> cluster_nodes(const std::vector<RankFacts>& facts, const std::vector<ResultsFile>& parts) {
    std::vector<ClusterNode> nodes;
    for (std::size_t r = 0; r < facts.size(); ++r) {
        ClusterNode n;
        n.name = facts[r].name;
        n.rank = static_cast<int>(r);
        n.hostname = facts[r].hostname;
        n.host_id = facts[r].host_id;
        for (std::size_t o = 0; o < facts.size(); ++o)
            if (o != r && facts[o].host_id == facts[r].host_id) n.shares_host_with.push_back(facts[o].name);
        n.nics = facts[r].nics;
        // The NIC MPI used is only known when the user pinned it (Open MPI's TCP interface list);
        // ranks of one host talk through shared memory.
        if (const char* pinned = std::getenv("OMPI_MCA_btl_tcp_if_include"); pinned && n.shares_host_with.empty())
            n.nic_used = pinned;
        n.status = facts[r].status;
        n.error = facts[r].error;
        n.meta = parts[r].meta;
        n.topology = parts[r].topology;
        nodes.push_back(std::move(n));
    }
    return nodes;
}

struct Assembly {
    json mpi;
    std::vector<RankFacts> facts;
    std::vector<ResultsFile> parts;  // node parts, by rank
    std::vector<Record> inter_node;  // every rank's inter-node records
    json schedule;
};

// Error records for every record a pair with a failed node was due to measure.
std::vector<Record> failed_pair_records(const PairSchedule& schedule, const std::vector<RankFacts>& facts,
                                        const InterNodeSelection& selection) {
    std::vector<Record> out;
    for (const auto& round : schedule.rounds)
        for (const NodePair& p : round) {
            const RankFacts& a = facts[static_cast<std::size_t>(p.first)];
            const RankFacts& b = facts[static_cast<std::size_t>(p.second)];
            if (a.status == "ok" && b.status == "ok") continue;
            const RankFacts& failed = a.status != "ok" ? a : b;
            for (const InterNodeRecord& planned : records_of_pair(a.ends, b.ends, selection)) {
                Record r;
                r.method = planned.method;
                r.src = planned.src;
                r.dst = planned.dst;
                r.params = planned.params;
                r.key = planned.key;
                r.status = "error";
                r.error = "not measured: node " + failed.name + " failed: " + failed.error;
                r.error_type = "rank";
                const bool a_initiates = split_endpoint_id(r.src, {a.name}).node == a.name;
                set_inter_node_context(r, a_initiates ? a.name : b.name, a_initiates ? b.name : a.name,
                                       a.host_id == b.host_id);
                out.push_back(std::move(r));
            }
        }
    return out;
}

ResultsFile assemble(const Assembly& a, bool finished) {
    ResultsFile file;
    file.meta = a.parts.front().meta;  // rank 0's meta
    file.meta["run"]["mpi"] = true;
    std::vector<std::string> names;
    for (const RankFacts& f : a.facts) names.push_back(f.name);
    set_meta_nodes(file.meta, names);
    file.topology = json::object();  // each node's graph is in cluster.nodes[].topology
    for (const ResultsFile& part : a.parts)
        for (const Record& r : part.records) store_record(file, r);
    for (const Record& r : a.inter_node) store_record(file, r);
    keep_method_rows(file, builtin_catalog());
    file.unknown["cluster"] = cluster_section(a.mpi, cluster_nodes(a.facts, a.parts), a.schedule);
    begin_run_state(file.meta, file.records.size(), read_load_average(), std::thread::hardware_concurrency(),
                    file.meta["run"].value("started_utc", ""));
    set_completed_records(file.meta, file.records.size());
    end_run_state(file.meta, finished, utc_now_iso8601());
    return file;
}

std::string part_text(const ResultsFile& part) { return results_to_json(part).dump(); }

ResultsFile part_from_text(const std::string& text) { return results_from_json(json::parse(text)); }

int exit_code_of(const ResultsFile& file) {
    for (const Record& r : file.records)
        if (r.status != "ok") return kExitRecordErrors;
    return 0;
}

}  // namespace

int run_cluster(const Registry& registry, const RunOptions& options, const ClusterArgs& args) {
    MpiEnvironment mpi(nullptr, nullptr);
    const Communicator world = Communicator::world();
    const int me = world.rank();
    const HostIdentity host = read_host_identity();

    // Names and the output first: bad input stops every rank before anything is measured.
    std::string usage;
    std::string my_name;
    try {
        my_name = expand_node_name(args.node_name, me, host.hostname);
        if (me == 0 && !args.plan_only) args.check_output(args.output);
    } catch (const UsageError& e) {
        usage = e.what();
    }
    if (const auto code = agree_on_usage(world, usage)) return *code;
    const std::vector<std::string> names = unique_node_names(world.allgather_strings(my_name));
    const PairSchedule schedule = make_pair_schedule(world.size(), args.schedule);
    if (args.plan_only) {
        if (me == 0) std::cout << describe_cluster_plan(schedule, names, options);
        return 0;
    }

    RankFacts mine{names[static_cast<std::size_t>(me)], host.hostname, host.host_id, "ok", "", {}, {}};
    const ClusterFilters filters = split_cluster_filters(options.filters);
    Graph graph;
    NodePart part;
    try {
        graph = discover_machine(DiscoverOptions{});
    } catch (const std::exception& e) {
        part.status = "error";
        part.error = std::string("discovery: ") + e.what();
    }
    mine.ends = choose_local_ends(graph, mine.name, gpu_for_rank(graph, local_rank(world)));
    mine.nics = nic_ids(graph);
    if (part.status == "ok") {
        part = characterize_node(graph, registry, options,
                                 {mine.name, me, args.command_line, filters.local, filters.measure_locally,
                                  args.record_line});
    } else {
        part.results.meta = json::object();
        part.results.records.push_back(rank_error_record(mine.name, part.error));
    }
    mine.status = part.status;
    mine.error = part.error;

    Assembly a;
    const MpiLibraryInfo library = query_mpi_library();
    a.mpi = mpi_library_json(library);
    for (const std::string& text : world.allgather_strings(facts_to_json(mine).dump()))
        a.facts.push_back(facts_from_json(json::parse(text)));
    InterNodeArgs inter{schedule, {}, {}, {}, {filters.mpi_host, filters.mpi_gpu, library.cuda_aware.value_or(false)},
                        args.record_line};
    for (const RankFacts& f : a.facts) {
        inter.ends.push_back(f.ends);
        inter.healthy.push_back(f.status == "ok");
        inter.host_ids.push_back(f.host_id);
    }
    const double estimate = estimate_schedule_seconds(schedule, kHostRecordsPerPair, options.sizes.size(),
                                                      options.stopping.time_budget_s);
    a.schedule = schedule_to_json(schedule, names, estimate);

    // Every node's own results reach the file before the pairs are measured.
    for (const std::string& text : world.gather_strings(part_text(part.results), 0)) a.parts.push_back(part_from_text(text));
    if (me == 0) save_cluster_results(args.output, assemble(a, false));

    ResultsFile initiated;
    try {
        initiated.records = measure_inter_node(world, graph, options, inter);
    } catch (const std::exception& e) {
        // A failed MPI call mid-protocol: this rank's pairs end here (its peer may wait; docs/cluster.md).
        std::cerr << mine.name << ": inter-node error: " << e.what() << std::endl;
        Record r = rank_error_record(mine.name, std::string("inter-node phase: ") + e.what());
        r.key = record_key("rank", r.src, r.dst, {{"phase", "inter-node"}});
        r.params = {{"phase", "inter-node"}};
        initiated.records.push_back(std::move(r));
    }
    for (const std::string& text : world.gather_strings(part_text(initiated), 0))
        for (Record& r : part_from_text(text).records) a.inter_node.push_back(std::move(r));
    for (Record& r : failed_pair_records(schedule, a.facts, inter.selection)) a.inter_node.push_back(std::move(r));

    int code = 0;
    if (me == 0) {
        const ResultsFile file = assemble(a, true);
        save_cluster_results(args.output, file);
        code = exit_code_of(file);
        std::cout << "hwcomm run --mpi: " << names.size() << " node(s), " << file.records.size() << " record(s) in "
                  << args.output << "\n";
    }
    mpi_check(MPI_Bcast(&code, 1, MPI_INT, 0, world.raw()), "MPI_Bcast");
    return code;
}

}  // namespace hwcomm
