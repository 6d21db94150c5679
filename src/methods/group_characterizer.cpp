#include "methods/group_characterizer.hpp"

#include "core/error.hpp"

namespace hwcomm {

void TransferSession::attach_load(const Graph&, const std::vector<LoadRoute>&, const MethodOptions&) {
    throw MeasurementError("this method cannot run under load (--under-load needs a CUDA lane-group method)");
}

std::unique_ptr<TransferSession> Characterizer::prepare_round(const Graph&, const std::vector<RoundLane>&,
                                                              const ParamSet&, std::size_t,
                                                              const MethodOptions&) const {
    throw MeasurementError(name() + " cannot measure pairs in rounds: each is confirmed alone");
}

std::unique_ptr<TransferSession> GroupCharacterizer::prepare(const Graph&, const Vertex&, const Vertex&,
                                                             const ParamSet&, std::size_t,
                                                             const MethodOptions&) const {
    throw MeasurementError(name() + " is a concurrency method: prepare it per endpoint set");
}

}  // namespace hwcomm
