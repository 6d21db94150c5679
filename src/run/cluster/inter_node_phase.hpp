#pragma once
// A cluster run's second phase: the schedule's rounds, one after the other
// on every rank; within a round the disjoint pairs run at once, each on its
// own communicator split from the world. In a pair the lower rank initiates
// first (its uni and bi records), then the other (its uni records); the
// initiator's engine measures, the responder serves (methods/mpi). Pairs with
// a failed node are skipped here; rank 0 writes their error records.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "run/progress.hpp"
#include "methods/mpi/local_ends.hpp"
#include "run/cluster/pair_records.hpp"
#include "run/cluster/pair_schedule.hpp"
#include "run/run_options.hpp"

namespace hwcomm {

class Communicator;

struct InterNodeArgs {
    PairSchedule schedule;
    std::vector<LocalEnds> ends;        // every rank's, in rank order
    std::vector<bool> healthy;          // every rank's node status is "ok"
    std::vector<std::string> host_ids;  // ranks on one host: shared-memory transport
    InterNodeSelection selection;
    RecordLine record_line;             // the log line of each finished record
};

// The records this rank initiated, node-qualified, with context.nodes and
// context.shared_host.
std::vector<Record> measure_inter_node(const Communicator& world, const Graph& graph, const RunOptions& options,
                                       const InterNodeArgs& args);

// The context every inter-node record carries.
void set_inter_node_context(Record& record, const std::string& src_node, const std::string& dst_node, bool shared_host);

}  // namespace hwcomm
