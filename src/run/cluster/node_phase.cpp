#include "run/cluster/node_phase.hpp"

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "io/endpoint_ids.hpp"
#include "io/results_meta.hpp"
#include "io/run_state.hpp"
#include "platform/host_info.hpp"
#include "run/engine.hpp"
#include "run/host_read_probe.hpp"
#include "run/plan.hpp"
#include "run/representative_recheck.hpp"
#include "run/progress.hpp"

namespace hwcomm {

namespace {

void fail_if_injected(int rank) {
    const char* v = std::getenv(kTestFailRankEnv);
    if (v && std::string(v) == std::to_string(rank))
        throw std::runtime_error(std::string(kTestFailRankEnv) + "=" + v + ": injected failure of this rank's characterization");
}

}  // namespace

Record rank_error_record(const std::string& node, const std::string& error) {
    Record r;
    r.method = "rank";
    r.src = r.dst = qualify_endpoint_id(node, "host");
    r.key = record_key(r.method, r.src, r.dst, r.params);
    r.status = "error";
    r.error = error;
    r.error_type = "rank";
    r.context = {{"node", node}};
    return r;
}

void qualify_node_records(ResultsFile& results, const std::string& node) {
    set_meta_nodes(results.meta, {node});
    qualify_results(results, node);
    for (Record& r : results.records) r.context["node"] = node;
}

NodePart characterize_node(const Graph& graph, const Registry& registry, const RunOptions& options,
                           const NodePhaseArgs& args) {
    NodePart part;
    part.results = new_results(graph, args.command_line, run_options_to_json(options));
    try {
        fail_if_injected(args.rank);
        RunOptions resolved = options;  // this node's graph: its own load routes
        resolve_run_options(resolved, graph, registry);
        std::vector<PlannedRecord> plan;
        if (args.measure_locally) {
            const Filters filters(args.local_filters, registry, graph);
            plan = build_plan(graph, registry, filters, resolved.method);
        }
        begin_run_state(part.results.meta, plan.size(), read_load_average(), std::thread::hardware_concurrency(),
                        utc_now_iso8601());
        // The host's memory read rate between records, as `hwcomm run` keeps it
        // (run/host_read_probe.hpp): each node's series in its own meta.
        HostReadSeries host_read(part.results.meta, plan.empty() ? "nothing measured on this node" : "");
        EngineHooks hooks;
        std::size_t done = 0;
        hooks.on_record = [&](const Record& record) {
            host_read.after_record(part.results.records.back());
            stamp_measured_provenance(part.results.records.back());
            absorb_record_meta(part.results, record);
            ++done;
            if (args.record_line) std::cerr << args.node << ": " << args.record_line(record, done, plan.size()) << std::endl;
        };
        hooks.on_recheck = [&](Record& representative) {
            host_read.after_recheck(representative);
            std::cerr << args.node << ": " << recheck_line(representative.key, representative.context["recheck"]) << std::endl;
        };
        hooks.on_second_pass = [&](const std::string& line) { std::cerr << args.node << ": " << line << std::endl; };
        run_plan(graph, plan, resolved, part.results, hooks);
        host_read.finish();
        set_completed_records(part.results.meta, part.results.records.size());
        end_run_state(part.results.meta, true, utc_now_iso8601());
    } catch (const std::exception& e) {
        part.status = "error";
        part.error = e.what();
        std::cerr << args.node << ": error: " << part.error << std::endl;
    }
    qualify_node_records(part.results, args.node);
    if (part.status != "ok") part.results.records.push_back(rank_error_record(args.node, part.error));
    return part;
}

}  // namespace hwcomm
