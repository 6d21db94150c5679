#pragma once
// What a shared edge carries against the transfers sharing it: the smooth
// minimum A(x) = x / (1 + (x/C)^k)^(1/k) of the demand x (the transfers'
// rates alone, added: n*b for n alike) and a capacity C. The sharpness k
// shapes the knee: a large k is a hard cap min(x, C), a small one a gradual
// saturation (4x H200 host side: 2 host-to-GPU copies lose 1%, 3 lose 12%,
// 4 lose 25%). Fitted on the lane counts measured; A(x) < x always, and
// A(b) ~ b for one transfer well below C (docs/model.md).
#include <cstddef>
#include <string>
#include <vector>

namespace hwcomm::model {

// One record's testimony: n transfers crossed the edge together, asking x
// GB/s alone, and it carried y (median over the sizes of 64 MiB and more;
// the least and the most of those sizes give the spread the intervals use).
struct EdgeObservation {
    std::string record;
    std::size_t transfers = 0;   // n
    double demand_gbps = 0;      // x
    double carried_gbps = 0;     // y
    double carried_least = 0, carried_most = 0;
};

// k when fewer than 3 lane counts were measured (then C alone is fitted):
// 4.79, fitted with C = 176.0 GB/s on the one full sweep we have (4x H200
// host side, 2..4 pinned host-to-GPU copies, revision bb915ca; docs/model.md).
inline constexpr double kDefaultSharpness = 4.8;
inline constexpr double kMaxSharpness = 32;   // beyond this the knee is a hard cap

struct CapacityCurve {
    double capacity_gbps = 0;        // C
    double sharpness = kDefaultSharpness;  // k
    bool sharpness_fitted = false;   // false: kDefaultSharpness
    double rel_rms = 0;              // of the fit on its observations
};

double carried_gbps(const CapacityCurve& curve, double demand_gbps);

// Least squares on the relative error; C alone with fewer than 3 distinct
// counts. Throws std::invalid_argument for no observation.
CapacityCurve fit_capacity_curve(const std::vector<EdgeObservation>& observations);

// The distinct lane counts, increasing.
std::vector<std::size_t> counts_of(const std::vector<EdgeObservation>& observations);

// A(x) for n transfers with an interval. Within the measured counts (and
// between one transfer alone and the smallest count) the interval is the
// largest relative residual of any observation (its sizes' spread included):
// the error the curve makes where it was measured; with k not fitted (one
// count), below that count it reaches up to no contention. Beyond the
// largest count it spans from what the edge carried there at most (more
// transfers are taken to carry no less) to the demand, or the stated rate
// when lower (no edge carries more than asked or stated).
struct LoadEstimate {
    double gbps = 0, low = 0, high = 0;
    bool extrapolated = false;
    std::string range;  // "at 3 transfers (measured)", "between 2 and 4 transfers", "beyond 4 ..."
};
LoadEstimate estimate_load(const CapacityCurve& curve, const std::vector<EdgeObservation>& observations,
                           std::size_t transfers, double demand_gbps, double stated_gbps);

}  // namespace hwcomm::model
