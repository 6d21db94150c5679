#include "methods/cuda/lanes/lane_window.hpp"

#include <algorithm>
#include <limits>

namespace hwcomm::cuda {

LaneWindow combine_lanes(const std::vector<LaneEvents>& events) {
    LaneWindow w;
    if (events.empty()) return w;
    double first_start = std::numeric_limits<double>::max(), last_start = std::numeric_limits<double>::lowest();
    double first_stop = first_start, last_stop = last_start;
    for (const LaneEvents& e : events) {
        const double stop = e.stop_on_ref_s;
        const double start = e.start_on_ref_s ? *e.start_on_ref_s : stop - e.duration_s;
        w.lanes.push_back({start, stop});
        first_start = std::min(first_start, start);
        last_start = std::max(last_start, start);
        first_stop = std::min(first_stop, stop);
        last_stop = std::max(last_stop, stop);
    }
    w.window_s = last_stop - first_start;
    w.max_start_skew_s = last_start - first_start;
    w.max_stop_skew_s = last_stop - first_stop;
    return w;
}

}  // namespace hwcomm::cuda
