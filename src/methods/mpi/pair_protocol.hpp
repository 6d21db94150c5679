#pragma once
// The lockstep protocol between the two ranks of a pair. Rank 0 of the pair
// communicator (the initiator) runs the engine's usual loop (warm-up, reset,
// timed sample, verify; measure/stopping_rule decides when to stop) through
// an MpiPairSession; rank 1 (the responder) follows its commands in
// serve_pair(). Every timed transfer starts after an MPI_Barrier of the pair
// and is timed on the initiator.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace hwcomm {

class Communicator;

enum class PairCommand : std::int32_t { Prepare = 1, Reset, Run, Verify, Close, EndPair };

struct CommandMessage {
    PairCommand command = PairCommand::EndPair;
    std::int32_t with_latency = 0;  // Run: a ping-pong batch before the streaming one
    std::uint64_t bytes = 0;
    std::uint64_t repetitions = 0;
    std::uint64_t seed = 0;         // Reset: the initiator's seed (the responder sends seed + 1)
};

void send_command(const Communicator& pair, const CommandMessage& message);
CommandMessage recv_command(const Communicator& pair);

// What one record transfers, as both ranks must know it.
struct TransferSpec {
    std::string method;     // "mpi-host" | "mpi-gpu"
    std::string op;         // "sendrecv" | "put"
    std::string direction;  // "uni" | "bi"
    std::string placement;  // mpi-host: "near-nic" | "far"
    std::string path;       // mpi-gpu: "cuda-aware" | "staged"
    std::size_t max_bytes = 0;
};

nlohmann::json transfer_spec_to_json(const TransferSpec& spec);
TransferSpec transfer_spec_from_json(const nlohmann::json& j);

}  // namespace hwcomm
