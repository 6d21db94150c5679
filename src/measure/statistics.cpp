#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace hwcomm {

double quantile_sorted(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) throw std::invalid_argument("quantile of an empty sample");
    const double h = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double median_value(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return quantile_sorted(values, 0.5);
}

double median_or_zero(const std::vector<double>& values) { return values.empty() ? 0 : median_value(values); }

double robust_sd(const std::vector<double>& values) {
    const double m = median_value(values);
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (const double v : values) deviations.push_back(std::fabs(v - m));
    return median_value(std::move(deviations)) / 0.6745;
}

std::pair<std::size_t, std::size_t> median_ci95_ranks(std::size_t n) {
    if (n == 0) return {0, 0};
    if (n > 1000) {
        const double half = 1.96 * std::sqrt(static_cast<double>(n)) / 2.0;
        const auto lo = static_cast<std::size_t>(std::max(1.0, std::floor(n / 2.0 - half)));
        const auto hi = static_cast<std::size_t>(std::min<double>(n, std::ceil(n / 2.0 + 1.0 + half)));
        return {lo, hi};
    }
    // Largest k with P(X <= k-1) <= 0.025, X ~ Bin(n, 1/2): then the interval
    // [x_(k), x_(n-k+1)] covers the median with probability >= 95%.
    const double log_half_n = static_cast<double>(n) * std::log(0.5);
    const double lgn1 = std::lgamma(static_cast<double>(n) + 1.0);
    double cdf = 0;
    std::size_t k = 0;  // 0: no interval reaches 95%
    for (std::size_t j = 0; j < n; ++j) {
        const double lp = lgn1 - std::lgamma(j + 1.0) - std::lgamma(static_cast<double>(n - j) + 1.0) + log_half_n;
        cdf += std::exp(lp);  // P(X <= j)
        if (cdf > 0.025) break;
        k = j + 1;
    }
    if (k == 0) return {1, n};
    return {k, n - k + 1};
}

SampleStats compute_stats(std::vector<double> samples) {
    if (samples.empty()) throw std::invalid_argument("statistics of an empty sample");
    std::sort(samples.begin(), samples.end());
    SampleStats s;
    s.n = samples.size();
    s.min = samples.front();
    s.max = samples.back();
    s.median = quantile_sorted(samples, 0.5);
    s.q1 = quantile_sorted(samples, 0.25);
    s.q3 = quantile_sorted(samples, 0.75);
    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
    if (s.n > 1) {
        double ss = 0;
        for (double x : samples) ss += (x - s.mean) * (x - s.mean);
        s.stdev = std::sqrt(ss / static_cast<double>(s.n - 1));
    }
    s.cv = s.mean != 0 ? s.stdev / s.mean : 0;
    const auto [lo, hi] = median_ci95_ranks(s.n);
    s.ci95_low = samples[lo - 1];
    s.ci95_high = samples[hi - 1];
    return s;
}

}  // namespace hwcomm
