#pragma once
// Statistics of raw sample times. Quartiles interpolate linearly between order
// statistics (the "type 7" rule of R and NumPy). The 95% confidence interval
// of the median is distribution-free: a pair of order statistics chosen with
// the binomial(n, 1/2) distribution (exact up to n = 1000, normal
// approximation n/2 -+ 1.96 sqrt(n)/2 beyond).
#include <cstddef>
#include <utility>
#include <vector>

#include "core/results.hpp"

namespace hwcomm {

// Throws std::invalid_argument on an empty sample.
SampleStats compute_stats(std::vector<double> samples);

// Linear-interpolated quantile of sorted data, p in [0, 1].
double quantile_sorted(const std::vector<double>& sorted, double p);

// The median (type 7: the mean of the middle two for an even count); throws
// std::invalid_argument on an empty vector.
double median_value(std::vector<double> values);

// median_value, but 0 for an empty vector (where nothing was there to take the
// median of, e.g. a cost band nothing was fitted on).
double median_or_zero(const std::vector<double>& values);

// A robust sd: the median absolute deviation from the median over 0.6745
// (equal to the sd for normal data, untouched by a few outliers); throws
// std::invalid_argument on an empty vector.
double robust_sd(const std::vector<double>& values);

// Iglewicz and Hoaglin's threshold: a value more than this many robust sd
// from the median (modified z-score) is an outlier.
inline constexpr double kModifiedZOutlier = 3.5;

// 1-based ranks (lo, hi) of the order statistics bounding the 95% CI of the
// median for n samples. When n is too small for 95% coverage (n < 6) the
// widest interval, (1, n), is returned.
std::pair<std::size_t, std::size_t> median_ci95_ranks(std::size_t n);

}  // namespace hwcomm
