#pragma once
// The initiator's side of an inter-node record, as the engine sees it: a
// Characterizer for one pair of ranks whose sessions drive the responder
// through the pair protocol, so the engine's loop (warm-up, per-sample reset,
// timed batch, verification, stopping rule, statistics) measures inter-node
// transfers exactly as it measures local ones. serve_pair() is the
// responder's side.
#include <map>
#include <memory>
#include <string>

#include "methods/characterizer.hpp"
#include "methods/mpi/local_ends.hpp"
#include "methods/mpi/pair_protocol.hpp"

namespace hwcomm {

class Communicator;

// mpi-host or mpi-gpu between this rank (rank 0 of `pair`) and its peer.
// Params: op, direction, placement (mpi-host) or path (mpi-gpu).
class MpiPairMethod final : public Characterizer {
public:
    MpiPairMethod(std::string name, const Communicator& pair, LocalEnds ends, std::string peer_node)
        : name_(std::move(name)), pair_(pair), ends_(std::move(ends)), peer_node_(std::move(peer_node)) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "inter-node transfer through MPI"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex&, const Vertex&) const override { return Applicability::yes(); }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {};
    }
    // `src` and `dst` are ignored: the ends come from LocalEnds on each rank.
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override;

private:
    std::string name_;
    const Communicator& pair_;
    LocalEnds ends_;
    std::string peer_node_;
};

// The responder: follows the initiator's commands until EndPair.
void serve_pair(const Communicator& pair, const LocalEnds& ends, const std::string& peer_node);

// Tells the responder the pair is done (after the initiator's last record).
void end_pair(const Communicator& pair);

}  // namespace hwcomm
