#include "model/curve_model.hpp"
#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hwcomm::model {

namespace {

double rate_gbps(const Knot& k, double factor) { return static_cast<double>(k.bytes) * factor / k.seconds / 1e9; }

// t = a + n c, least squares on the relative error (weights 1/t^2), so small
// and large sizes count alike. Returns false when it has no positive solution.
bool hockney(const std::vector<Knot>& knots, double factor, double& a, double& c, double& rms) {
    double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
    for (const Knot& k : knots) {
        const double w = 1.0 / (k.seconds * k.seconds), n = static_cast<double>(k.bytes) * factor;
        s00 += w, s01 += w * n, s11 += w * n * n, r0 += w * k.seconds, r1 += w * n * k.seconds;
    }
    const double det = s00 * s11 - s01 * s01;
    if (knots.size() < 2 || !(std::abs(det) > 0)) return false;
    a = (r0 * s11 - r1 * s01) / det;
    c = (s00 * r1 - s01 * r0) / det;
    if (!(c > 0)) return false;
    a = std::max(a, 0.0);
    double sum = 0;
    for (const Knot& k : knots) {
        const double e = (a + static_cast<double>(k.bytes) * factor * c - k.seconds) / k.seconds;
        sum += e * e;
    }
    rms = std::sqrt(sum / static_cast<double>(knots.size()));
    return true;
}

}  // namespace

const char* to_string(Regime r) {
    switch (r) {
        case Regime::LatencyBound: return "latency-bound";
        case Regime::Ramp: return "ramp";
        case Regime::Plateau: return "plateau";
    }
    return "ramp";
}

CurveFit fit_curve_plain(std::vector<Knot> knots, double factor) {
    if (knots.empty()) throw std::invalid_argument("a curve needs at least one measured size");
    std::sort(knots.begin(), knots.end(), [](const Knot& x, const Knot& y) { return x.bytes < y.bytes; });
    CurveFit f;
    f.knots = std::move(knots);
    f.bytes_per_rep_factor = factor;
    const auto& k = f.knots;
    // Plateau: walking down from the largest size while rates stay within 10% of its rate.
    const double top = rate_gbps(k.back(), factor);
    std::size_t first = k.size() - 1;
    while (first > 0 && std::abs(rate_gbps(k[first - 1], factor) / top - 1) <= 0.10) --first;
    std::vector<double> rates;
    for (std::size_t i = first; i < k.size(); ++i) rates.push_back(rate_gbps(k[i], factor));
    f.plateau_gbps = median_value(rates);
    f.plateau_start_bytes = k[first].bytes;
    // Latency-bound: time barely grows with size (within 1.5x of the fastest time).
    double tmin = k.front().seconds;
    for (const Knot& x : k) tmin = std::min(tmin, x.seconds);
    f.latency_end_bytes = 0;
    for (const Knot& x : k) {
        if (x.seconds > 1.5 * tmin || x.bytes >= f.plateau_start_bytes) break;
        f.latency_end_bytes = x.bytes;
    }
    double a = 0, c = 0, rms = 0;
    if (hockney(k, factor, a, c, rms)) {
        f.latency_s = a;
        f.asymptotic_gbps = 1.0 / c / 1e9;
        f.hockney_rel_rms = rms;
    } else {
        f.latency_s = 0;
        f.asymptotic_gbps = f.plateau_gbps;
    }
    return f;
}

CurveFit fit_curve(std::vector<Knot> knots, double factor) {
    CurveFit f = fit_curve_plain(std::move(knots), factor);
    if (f.knots.size() < 2) return f;
    for (std::size_t i = 0; i < f.knots.size(); ++i) {
        std::vector<Knot> rest = f.knots;
        rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
        const CurveFit without = fit_curve_plain(std::move(rest), factor);
        f.knots[i].loo_error = predict_seconds(without, f.knots[i].bytes) / f.knots[i].seconds - 1;
    }
    return f;
}

double predict_seconds(const CurveFit& f, std::uint64_t bytes) {
    const auto& k = f.knots;
    if (bytes <= k.front().bytes) return k.front().seconds;  // the latency floor
    if (bytes >= k.back().bytes) {
        // Past the last size: the plateau rate carries the extra bytes.
        const double extra = static_cast<double>(bytes - k.back().bytes) * f.bytes_per_rep_factor;
        return k.back().seconds + extra / (f.plateau_gbps * 1e9);
    }
    const auto hi = std::lower_bound(k.begin(), k.end(), bytes,
                                     [](const Knot& x, std::uint64_t b) { return x.bytes < b; });
    if (hi->bytes == bytes) return hi->seconds;
    const auto lo = hi - 1;
    const double x = std::log(static_cast<double>(bytes)), x0 = std::log(static_cast<double>(lo->bytes)),
                 x1 = std::log(static_cast<double>(hi->bytes));
    const double y0 = std::log(lo->seconds), y1 = std::log(hi->seconds);
    return std::exp(y0 + (x - x0) / (x1 - x0) * (y1 - y0));
}

double large_gbps(const CurveFit& f) {
    std::vector<double> rates;
    for (const Knot& k : f.knots)
        if (k.bytes >= f.plateau_start_bytes && k.bytes >= (64ull << 20)) rates.push_back(rate_gbps(k, f.bytes_per_rep_factor));
    return rates.empty() ? rate_gbps(f.knots.back(), f.bytes_per_rep_factor) : median_value(rates);
}

Regime regime_at(const CurveFit& f, std::uint64_t bytes) {
    if (bytes <= f.latency_end_bytes) return Regime::LatencyBound;
    if (bytes >= f.plateau_start_bytes) return Regime::Plateau;
    return Regime::Ramp;
}

CurvePrediction predict(const CurveFit& f, std::uint64_t bytes) {
    CurvePrediction p{predict_seconds(f, bytes), 0, regime_at(f, bytes)};
    const auto& k = f.knots;
    const auto hi = std::lower_bound(k.begin(), k.end(), bytes,
                                     [](const Knot& x, std::uint64_t b) { return x.bytes < b; });
    if (hi == k.end()) {
        p.rel_error = std::abs(k.back().loo_error);
    } else if (hi->bytes == bytes || hi == k.begin()) {
        p.rel_error = std::abs(hi->loo_error);
    } else {
        p.rel_error = std::max(std::abs(hi->loo_error), std::abs((hi - 1)->loo_error));
    }
    return p;
}

}  // namespace hwcomm::model
