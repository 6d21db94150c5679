#include "methods/cuda/duplex_math.hpp"

#include <algorithm>

namespace hwcomm::cuda {

DuplexTiming combine_duplex(const DuplexEvents& ev) {
    const double b_stop = ev.b_stop_on_a_s;
    const double b_start = ev.b_start_on_a_s ? *ev.b_start_on_a_s : b_stop - ev.b_duration_s;
    const double earliest = std::min(0.0, b_start);
    const double latest = std::max(ev.a_duration_s, b_stop);
    return DuplexTiming{latest - earliest, b_start, b_stop - ev.a_duration_s};
}

}  // namespace hwcomm::cuda
