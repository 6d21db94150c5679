#pragma once
// One rank's side of one inter-node record: its buffers (chosen from the
// spec and its own LocalEnds), the RMA window of a put, and the transfer
// itself, which both ranks run in lockstep (pair_protocol.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "methods/mpi/local_ends.hpp"
#include "methods/mpi/pair_protocol.hpp"
#include "methods/mpi/transfer_buffers.hpp"

namespace hwcomm {

class Communicator;

struct TimedRun {
    double seconds = 0;          // the streaming batch, on the initiator
    double half_round_trip_s = -1;  // ping-pong: per repetition, half the round trip; -1 when not run
};

// Latency (metrics.latency_us) is measured up to this size.
inline constexpr std::size_t kLatencyMaxBytes = 64 * 1024;

// Both ranks: "" when mine and the peer's are both "", else the first error (naming whose).
std::string exchange_status(const Communicator& pair, const std::string& mine, const std::string& peer_node);

class PairEnd {
public:
    // Allocates this rank's buffers; throws MeasurementError.
    PairEnd(const Communicator& pair, const TransferSpec& spec, const LocalEnds& ends);
    ~PairEnd();
    PairEnd(const PairEnd&) = delete;
    PairEnd& operator=(const PairEnd&) = delete;

    // Collective over the pair, after both allocated: the window of a put.
    void open_window();
    // Untimed: own pattern into the send buffer, the peer's poisoned in the receive buffer.
    void reset(std::size_t bytes, std::uint64_t initiator_seed);
    TimedRun run(std::size_t bytes, std::size_t repetitions, bool with_latency);
    // "" when what this rank received holds the peer's pattern (or it received nothing).
    std::string verify(std::size_t bytes);

    bool initiator() const { return initiator_; }
    std::size_t capacity() const;
    // Bytes one repetition moves over the link (both directions for bi).
    double bytes_per_rep(std::size_t bytes) const;
    nlohmann::json context() const;
    // The local endpoint id of this end ("numa0", "gpu1").
    const std::string& endpoint() const { return endpoint_; }

private:
    bool receives() const;
    void run_pingpong(std::size_t bytes, std::size_t repetitions);
    void run_sendrecv(std::size_t bytes, std::size_t repetitions);
    void run_put(std::size_t bytes, std::size_t repetitions);

    const Communicator& pair_;
    TransferSpec spec_;
    bool initiator_;
    int peer_;
    std::string endpoint_;
    std::unique_ptr<TransferBuffers> buffers_;
    MPI_Win window_ = MPI_WIN_NULL;
    std::uint64_t my_seed_ = 0, peer_seed_ = 0;
};

}  // namespace hwcomm
