#include <algorithm>

#include "model/predict.hpp"

namespace hwcomm::model {

SetAnswer predict_set(const Model& model, const Graph* graph, const std::vector<Query>& transfers) {
    SetAnswer s;
    if (transfers.empty()) return s;
    s.lanes = predict_concurrent(model, graph, transfers);
    for (const Answer& a : s.lanes) {
        s.bytes += static_cast<double>(a.query.bytes);
        s.seconds = std::max(s.seconds, a.seconds);
        s.seconds_low = std::max(s.seconds_low, a.seconds_low);
        s.seconds_high = std::max(s.seconds_high, a.seconds_high);
    }
    const auto rate = [&s](double seconds) { return seconds > 0 ? s.bytes / seconds / 1e9 : 0.0; };
    s.gbps = rate(s.seconds), s.gbps_low = rate(s.seconds_high), s.gbps_high = rate(s.seconds_low);
    return s;
}

}  // namespace hwcomm::model
