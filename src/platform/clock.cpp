#include "platform/clock.hpp"

#include <algorithm>
#include <limits>

namespace hwcomm {

double steady_clock_resolution() {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 16; ++i) {
        const double a = steady_seconds();
        double b = steady_seconds();
        while (b == a) b = steady_seconds();
        best = std::min(best, b - a);
    }
    return best;
}

}  // namespace hwcomm
