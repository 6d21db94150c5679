#pragma once
// When to stop sampling one size: after warm-up, keep sampling until at least
// min_samples are taken AND the 95% CI of the median is within max_noise of
// the median ("converged"), or the time budget is spent ("time_budget"), or
// max_samples are taken ("max_samples"), or the spread says the target is out
// of reach ("noise_limited": after noise_limit_after samples, reaching
// max_noise would take more than noise_limit_margin times the samples the
// whole budget affords at this pace, the half-width shrinking as 1/sqrt(n);
// like nvbench's criterion, more samples would only refine an estimate whose
// spread is already known). To reach min_samples the budget may
// stretch to min_samples_budget_factor times itself (large transfers whose
// single sample nearly fills the budget still get a median with a spread). Pure: it only sees the numbers fed to
// it, so tests drive it with synthetic streams.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hwcomm {

enum class StopReason { Converged, TimeBudget, MaxSamples, NoiseLimited };
const char* to_string(StopReason reason);

struct StoppingOptions {
    std::size_t min_samples = 5;
    double max_noise = 0.01;        // CI half-width / median
    double time_budget_s = 0.25;    // per size and variant, sampling time only
    std::size_t max_samples = 1000;
    double min_samples_budget_factor = 5;
    std::size_t noise_limit_after = 0;  // 0: never stop for noise (runs written before it existed)
    double noise_limit_margin = 4;
};

class StoppingRule {
public:
    explicit StoppingRule(StoppingOptions options);
    // Adds one sample (seconds per transfer) taken when `elapsed_s` seconds of
    // this size's budget have passed. Returns the reason to stop, if any.
    std::optional<StopReason> add(double sample_s, double elapsed_s);
    const std::vector<double>& samples() const { return samples_; }
    // (hi - lo) / 2 / median of the current CI; infinity before 2 samples.
    double relative_half_width() const;

private:
    // half_width: relative_half_width() of the samples so far.
    bool noise_out_of_reach(double half_width, double elapsed_s) const;
    StoppingOptions options_;
    std::vector<double> samples_;
};

struct SamplingResult {
    std::vector<double> samples;
    StopReason reason = StopReason::MaxSamples;
};

// Draws samples from `next` until the rule stops. `next` returns one sample's
// seconds per transfer; `elapsed` the seconds spent since sampling began.
SamplingResult sample_until_stop(const StoppingOptions& options, const std::function<double()>& next,
                                 const std::function<double()>& elapsed);

}  // namespace hwcomm
