#pragma once
// Time against size for one (path, method, parameters): the measured medians
// as knots, the regimes they fall into and a Hockney fit t = a + n/b. A size
// between two knots is predicted on the power law through them (log-log
// interpolation), below the first knot at the first knot's time (the latency
// floor), above the last at the plateau rate. Each knot carries the error the
// model makes there when that knot is left out (the fit's error at a measured
// size), which is what the prediction interval is built from.
#include <cstdint>
#include <string>
#include <vector>

namespace hwcomm::model {

struct Knot {
    std::uint64_t bytes = 0;
    double seconds = 0;       // median time per transfer
    double loo_error = 0;     // (predicted without this knot - measured) / measured
};

enum class Regime { LatencyBound, Ramp, Plateau };
const char* to_string(Regime regime);

struct CurveFit {
    std::vector<Knot> knots;             // sorted by bytes, at least one
    double bytes_per_rep_factor = 1;     // bytes moved per size unit (2 for duplex)
    double latency_s = 0;                // Hockney a
    double asymptotic_gbps = 0;          // Hockney b
    double hockney_rel_rms = 0;
    double plateau_gbps = 0;             // median rate of the plateau knots
    std::uint64_t latency_end_bytes = 0; // last size whose time is within 1.5x of the smallest time
    std::uint64_t plateau_start_bytes = 0;  // first size from which every rate is within 10% of the plateau
};

struct CurvePrediction {
    double seconds = 0;
    double rel_error = 0;   // half-width of the interval, relative
    Regime regime = Regime::Ramp;
};

// Fits the knots (bytes, median seconds); bytes_factor scales bytes to the
// bytes moved (duplex: 2). Computes every knot's leave-one-out error.
// Throws std::invalid_argument for no knot.
CurveFit fit_curve(std::vector<Knot> knots, double bytes_factor = 1);

// The fit without its leave-one-out errors (used inside them).
CurveFit fit_curve_plain(std::vector<Knot> knots, double bytes_factor = 1);

double predict_seconds(const CurveFit& fit, std::uint64_t bytes);
// The large-transfer rate (as analyze's rule): the median rate of the plateau
// sizes of 64 MiB and more; the largest size's rate when none reaches 64 MiB.
double large_gbps(const CurveFit& fit);
Regime regime_at(const CurveFit& fit, std::uint64_t bytes);
// Time, regime and the interval: the largest leave-one-out error of the two
// knots around the size (the nearest one outside the measured range).
CurvePrediction predict(const CurveFit& fit, std::uint64_t bytes);

}  // namespace hwcomm::model
