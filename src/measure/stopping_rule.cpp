#include "measure/stopping_rule.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "measure/statistics.hpp"

namespace hwcomm {

const char* to_string(StopReason reason) {
    switch (reason) {
    case StopReason::Converged: return "converged";
    case StopReason::TimeBudget: return "time_budget";
    case StopReason::MaxSamples: return "max_samples";
    case StopReason::NoiseLimited: return "noise_limited";
    }
    return "unknown";
}

StoppingRule::StoppingRule(StoppingOptions options) : options_(options) {
    if (options_.min_samples < 1) options_.min_samples = 1;
    if (options_.max_samples < options_.min_samples) options_.max_samples = options_.min_samples;
}

double StoppingRule::relative_half_width() const {
    if (samples_.size() < 2) return std::numeric_limits<double>::infinity();
    std::vector<double> sorted = samples_;
    std::sort(sorted.begin(), sorted.end());
    const auto [lo, hi] = median_ci95_ranks(sorted.size());
    const double median = quantile_sorted(sorted, 0.5);
    if (median <= 0) return std::numeric_limits<double>::infinity();
    return (sorted[hi - 1] - sorted[lo - 1]) / 2.0 / median;
}

std::optional<StopReason> StoppingRule::add(double sample_s, double elapsed_s) {
    samples_.push_back(sample_s);
    const bool enough = samples_.size() >= options_.min_samples;
    // Sorted once per sample: the convergence and the noise limit judge the same interval.
    const double half_width = enough ? relative_half_width() : std::numeric_limits<double>::infinity();
    if (half_width <= options_.max_noise) return StopReason::Converged;
    if (samples_.size() >= options_.max_samples) return StopReason::MaxSamples;
    const double budget = options_.time_budget_s * (enough ? 1.0 : std::max(1.0, options_.min_samples_budget_factor));
    if (elapsed_s >= budget) return StopReason::TimeBudget;
    if (noise_out_of_reach(half_width, elapsed_s)) return StopReason::NoiseLimited;
    return std::nullopt;
}

bool StoppingRule::noise_out_of_reach(double half_width, double elapsed_s) const {
    const std::size_t n = samples_.size();
    if (options_.noise_limit_after == 0 || n < std::max(options_.noise_limit_after, options_.min_samples) ||
        !(elapsed_s > 0) || !(options_.max_noise > 0))
        return false;
    const double width = half_width / options_.max_noise;
    const double needed = static_cast<double>(n) * width * width;
    const double affordable = static_cast<double>(n) * options_.time_budget_s / elapsed_s;
    return needed > options_.noise_limit_margin * affordable;
}

SamplingResult sample_until_stop(const StoppingOptions& options, const std::function<double()>& next,
                                 const std::function<double()>& elapsed) {
    StoppingRule rule(options);
    for (;;) {
        const double s = next();
        if (auto reason = rule.add(s, elapsed())) return {rule.samples(), *reason};
    }
}

}  // namespace hwcomm
