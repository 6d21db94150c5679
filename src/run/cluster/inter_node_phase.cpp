#include "run/cluster/inter_node_phase.hpp"

#include <iostream>
#include <memory>

#include "catalog/method_names.hpp"
#include "io/results_meta.hpp"
#include "methods/mpi/pair_session.hpp"
#include "platform/mpi/communicator.hpp"
#include "run/engine.hpp"
#include "run/progress.hpp"

namespace hwcomm {

namespace {

// The engine needs a local vertex for a planned record; the MPI methods take
// their ends from LocalEnds, so any vertex of this graph does.
const Vertex* any_vertex(const Graph& graph) {
    const auto numas = graph.of_kind(VertexKind::NumaNode);
    return numas.empty() ? nullptr : numas.front();
}

std::vector<Record> initiate(const Communicator& pair, const Graph& graph, const RunOptions& options,
                             const InterNodeArgs& args, int me, int peer, bool shared_host) {
    std::vector<Record> out;
    const MpiPairMethod host(method_name::kMpiHost, pair, args.ends[me], args.ends[peer].node);
    const MpiPairMethod gpu(method_name::kMpiGpu, pair, args.ends[me], args.ends[peer].node);
    const auto planned_records = records_initiated_by(args.ends[me], args.ends[peer], me < peer, args.selection);
    for (const InterNodeRecord& r : planned_records) {
        PlannedRecord p;
        p.method = r.method == gpu.name() ? &gpu : &host;
        p.src = p.dst = any_vertex(graph);
        p.params = r.params;
        p.key = r.key;
        p.src_id = r.src;
        p.dst_id = r.dst;
        std::optional<Record> record = measure_record(graph, p, options);
        if (!record) continue;
        set_inter_node_context(*record, args.ends[me].node, args.ends[peer].node, shared_host);
        stamp_measured_provenance(*record);
        if (args.record_line)
            std::cerr << args.ends[me].node << ": " << args.record_line(*record, out.size() + 1, planned_records.size())
                      << std::endl;
        out.push_back(std::move(*record));
    }
    end_pair(pair);
    return out;
}

}  // namespace

void set_inter_node_context(Record& record, const std::string& src_node, const std::string& dst_node, bool shared_host) {
    record.context["nodes"] = {src_node, dst_node};
    record.context["shared_host"] = shared_host;
    if (shared_host) record.context["mpi_transport"] = "same host: shared memory, not a network";
}

std::vector<Record> measure_inter_node(const Communicator& world, const Graph& graph, const RunOptions& options,
                                       const InterNodeArgs& args) {
    std::vector<Record> out;
    const int me = world.rank();
    for (std::size_t round = 0; round < args.schedule.rounds.size(); ++round) {
        const int peer = args.schedule.partner_of(round, me);
        const bool active = peer >= 0 && args.healthy[me] && args.healthy[peer];
        const bool shared_host = active && args.host_ids[me] == args.host_ids[peer];
        // Two phases: the lower rank initiates, then the higher one. Each
        // phase has its own communicator per pair of the round (color: the
        // lower rank), the phase's initiator as its rank 0.
        for (int phase = 0; phase < 2; ++phase) {
            const bool i_initiate = active && ((me < peer) == (phase == 0));
            const Communicator pair = world.split(active ? std::min(me, peer) : -1, i_initiate ? 0 : 1);
            if (!active) continue;
            if (i_initiate) {
                for (Record& r : initiate(pair, graph, options, args, me, peer, shared_host)) out.push_back(std::move(r));
            } else {
                serve_pair(pair, args.ends[me], args.ends[peer].node);
            }
        }
    }
    return out;
}

}  // namespace hwcomm
