#include "methods/mpi/pair_protocol.hpp"

#include "platform/mpi/communicator.hpp"

namespace hwcomm {

namespace {
constexpr int kCommandTag = 7201;
}

void send_command(const Communicator& pair, const CommandMessage& message) {
    pair.send(&message, sizeof message, 1 - pair.rank(), kCommandTag);
}

CommandMessage recv_command(const Communicator& pair) {
    CommandMessage message;
    pair.recv(&message, sizeof message, 1 - pair.rank(), kCommandTag);
    return message;
}

nlohmann::json transfer_spec_to_json(const TransferSpec& spec) {
    return {{"method", spec.method}, {"op", spec.op},     {"direction", spec.direction},
            {"placement", spec.placement}, {"path", spec.path}, {"max_bytes", spec.max_bytes}};
}

TransferSpec transfer_spec_from_json(const nlohmann::json& j) {
    TransferSpec s;
    s.method = j.at("method").get<std::string>();
    s.op = j.at("op").get<std::string>();
    s.direction = j.at("direction").get<std::string>();
    s.placement = j.value("placement", "");
    s.path = j.value("path", "");
    s.max_bytes = j.at("max_bytes").get<std::size_t>();
    return s;
}

}  // namespace hwcomm
