#pragma once
// Peer access of a GPU pair set exactly as a record asks, for the session's
// life, in both directions, with what the driver reported recorded.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "methods/cuda/common/cuda_handles.hpp"

namespace hwcomm::cuda {

class PeerSetup {
public:
    // enable: both a->b and b->a enabled (throws MeasurementError "peer access
    // not supported" when the driver refuses), else both disabled.
    PeerSetup(int a, int b, bool enable);
    // Only `device` may access `peer` (SM copies through a peer pointer).
    static PeerSetup one_way(int device, int peer);
    nlohmann::json describe() const { return description_; }

private:
    PeerSetup() = default;
    std::unique_ptr<PeerAccessGuard> forward_;
    std::unique_ptr<PeerAccessGuard> backward_;
    nlohmann::json description_;
};

// "on" -> true, "off" -> false (param_or_throw already validated it).
inline bool peer_wanted(const std::string& value) { return value == "on"; }

}  // namespace hwcomm::cuda
