#include "methods/cuda/common/peer_setup.hpp"

namespace hwcomm::cuda {

PeerSetup::PeerSetup(int a, int b, bool enable) {
    const bool ab = can_access_peer(a, b);
    const bool ba = can_access_peer(b, a);
    forward_ = std::make_unique<PeerAccessGuard>(a, b, enable);
    backward_ = std::make_unique<PeerAccessGuard>(b, a, enable);
    description_ = {{"requested", enable ? "on" : "off"},
                    {"can_access", {{"a_to_b", ab}, {"b_to_a", ba}}},
                    {"enabled_before", {{"a_to_b", forward_->was_enabled_before()},
                                        {"b_to_a", backward_->was_enabled_before()}}},
                    {"state_during_record", enable ? "enabled both ways" : "disabled both ways"}};
}

PeerSetup PeerSetup::one_way(int device, int peer) {
    PeerSetup s;
    const bool ok = can_access_peer(device, peer);
    s.forward_ = std::make_unique<PeerAccessGuard>(device, peer, true);
    s.description_ = {{"requested", "on"},
                      {"can_access", ok},
                      {"enabled_before", s.forward_->was_enabled_before()},
                      {"state_during_record", "gpu" + std::to_string(device) + " may access gpu" +
                                                  std::to_string(peer) + "'s memory"}};
    return s;
}

}  // namespace hwcomm::cuda
