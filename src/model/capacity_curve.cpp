#include "model/capacity_curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace hwcomm::model {

namespace {

double squared_error(const std::vector<EdgeObservation>& obs, const CapacityCurve& c) {
    double sum = 0;
    for (const EdgeObservation& o : obs) {
        const double e = carried_gbps(c, o.demand_gbps) / o.carried_gbps - 1;
        sum += e * e;
    }
    return sum;
}

// Minimizes f over [lo, hi]: a grid, then golden sections around its best point.
template <class F>
double minimize(F f, double lo, double hi, int grid) {
    double best = lo, best_value = std::numeric_limits<double>::infinity();
    const double step = (hi - lo) / grid;
    for (int i = 0; i <= grid; ++i)
        if (const double v = f(lo + step * i); v < best_value) best_value = v, best = lo + step * i;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = std::max(lo, best - step), b = std::min(hi, best + step);
    double c = b - g * (b - a), d = a + g * (b - a), fc = f(c), fd = f(d);
    for (int i = 0; i < 30; ++i) {
        if (fc < fd) {
            b = d, d = c, fd = fc, c = b - g * (b - a), fc = f(c);
        } else {
            a = c, c = d, fc = fd, d = a + g * (b - a), fd = f(d);
        }
    }
    const double mid = 0.5 * (a + b);
    return f(mid) <= best_value ? mid : best;
}

// The capacity that fits best for a given sharpness (searched in log C).
double best_capacity(const std::vector<EdgeObservation>& obs, double sharpness) {
    double max_x = 0, max_y = 0;
    for (const EdgeObservation& o : obs) max_x = std::max(max_x, o.demand_gbps), max_y = std::max(max_y, o.carried_gbps);
    const auto error_at = [&](double log_c) {
        return squared_error(obs, {std::exp(log_c), sharpness, false, 0});
    };
    return std::exp(minimize(error_at, std::log(0.25 * max_y), std::log(1000 * max_x), 40));
}

// The largest relative distance of what the edge carried (any size) from the curve.
double largest_residual(const CapacityCurve& c, const std::vector<EdgeObservation>& obs) {
    double r = 0;
    for (const EdgeObservation& o : obs) {
        const double a = carried_gbps(c, o.demand_gbps);
        for (double y : {o.carried_gbps, o.carried_least, o.carried_most})
            if (y > 0) r = std::max(r, std::abs(y / a - 1));
    }
    return r;
}

}  // namespace

double carried_gbps(const CapacityCurve& c, double x) {
    if (!(x > 0)) return 0;
    if (!(c.capacity_gbps > 0)) return x;
    const double r = x / c.capacity_gbps, k = c.sharpness;
    // x / (1 + r^k)^(1/k), written so that r^k cannot overflow.
    const double m = std::max(1.0, r);
    return x / (m * std::pow(std::pow(1 / m, k) + std::pow(r / m, k), 1 / k));
}

std::vector<std::size_t> counts_of(const std::vector<EdgeObservation>& obs) {
    std::set<std::size_t> s;
    for (const EdgeObservation& o : obs) s.insert(o.transfers);
    return {s.begin(), s.end()};
}

CapacityCurve fit_capacity_curve(const std::vector<EdgeObservation>& obs) {
    if (obs.empty()) throw std::invalid_argument("a capacity curve needs at least one observation");
    CapacityCurve c;
    if (counts_of(obs).size() >= 3) {
        // Both C and k: k searched in log k, C best for each.
        const auto error_at = [&](double log_k) {
            const double k = std::exp(log_k);
            return squared_error(obs, {best_capacity(obs, k), k, true, 0});
        };
        c.sharpness = std::exp(minimize(error_at, 0, std::log(kMaxSharpness), 16));
        c.sharpness_fitted = true;
    }
    c.capacity_gbps = best_capacity(obs, c.sharpness);
    c.rel_rms = std::sqrt(squared_error(obs, c) / static_cast<double>(obs.size()));
    return c;
}

LoadEstimate estimate_load(const CapacityCurve& c, const std::vector<EdgeObservation>& obs, std::size_t n,
                           double x, double stated) {
    LoadEstimate e;
    e.gbps = carried_gbps(c, x);
    const auto counts = counts_of(obs);
    if (counts.empty()) {
        e.low = e.high = e.gbps;
        return e;
    }
    if (n > counts.back()) {
        double most = 0;
        for (const EdgeObservation& o : obs)
            if (o.transfers == counts.back()) most = std::max(most, o.carried_gbps);
        e.extrapolated = true;
        e.low = std::min(e.gbps, most);
        e.high = std::max(e.gbps, stated > 0 ? std::min(x, stated) : x);
        e.range = "beyond the " + std::to_string(counts.back()) + " transfers measured: extrapolated";
        return e;
    }
    const auto hi = std::lower_bound(counts.begin(), counts.end(), n);
    const double r = largest_residual(c, obs);
    if (*hi == n) {
        e.range = "at " + std::to_string(n) + " transfers (measured)";
    } else if (hi == counts.begin()) {
        e.range = "between 1 (alone) and " + std::to_string(*hi) + " transfers";
    } else {
        e.range = "between " + std::to_string(*(hi - 1)) + " and " + std::to_string(*hi) + " transfers";
    }
    e.low = e.gbps * (1 - r);
    e.high = std::max(e.gbps, std::min(x, e.gbps * (1 + r)));
    if (!c.sharpness_fitted && *hi != n) {
        // One count measured: the knee between it and one transfer alone is
        // the default's shape, not this edge's; it may not contend at all.
        e.high = std::max(e.high, stated > 0 ? std::min(x, stated) : x);
        e.range += " (default k: up to no contention)";
    }
    return e;
}

}  // namespace hwcomm::model
