#include <gtest/gtest.h>

#include <random>

#include "measure/stopping_rule.hpp"

using namespace hwcomm;

namespace {

// Feeds a synthetic stream; elapsed time is the sum of the samples so far.
SamplingResult feed(const StoppingOptions& o, const std::function<double(std::size_t)>& stream) {
    std::size_t i = 0;
    double elapsed = 0;
    return sample_until_stop(
        o,
        [&] {
            const double s = stream(i++);
            elapsed += s;
            return s;
        },
        [&] { return elapsed; });
}

StoppingOptions opts(std::size_t min_samples, double noise, double budget, std::size_t max_samples = 1000) {
    StoppingOptions o;
    o.min_samples = min_samples;
    o.max_noise = noise;
    o.time_budget_s = budget;
    o.max_samples = max_samples;
    return o;
}

}  // namespace

TEST(StoppingRule, ConstantStreamConvergesAtMinSamples) {
    const auto r = feed(opts(5, 0.01, 10), [](std::size_t) { return 1e-3; });
    EXPECT_EQ(r.reason, StopReason::Converged);
    EXPECT_EQ(r.samples.size(), 5u);
}

TEST(StoppingRule, SmallGaussianNoiseConverges) {
    std::mt19937 gen(42);
    std::normal_distribution<double> noise(1e-3, 1e-6);  // 0.1% CV
    const auto r = feed(opts(5, 0.01, 10), [&](std::size_t) { return noise(gen); });
    EXPECT_EQ(r.reason, StopReason::Converged);
    EXPECT_EQ(r.samples.size(), 5u);
}

TEST(StoppingRule, LargeNoiseNeedsMoreSamples) {
    std::mt19937 gen(7);
    std::normal_distribution<double> noise(1e-3, 2e-5);  // 2% CV: 5 samples are not enough for 1%
    const auto r = feed(opts(5, 0.01, 10), [&](std::size_t) { return noise(gen); });
    EXPECT_EQ(r.reason, StopReason::Converged);
    EXPECT_GT(r.samples.size(), 10u);
    EXPECT_LT(r.samples.size(), 1000u);
}

TEST(StoppingRule, BimodalStreamRunsOutOfTime) {
    // Alternating 1 ms / 2 ms: the median's CI always spans both modes.
    const auto r = feed(opts(5, 0.01, 0.1), [](std::size_t i) { return i % 2 ? 2e-3 : 1e-3; });
    EXPECT_EQ(r.reason, StopReason::TimeBudget);
    // 0.1 s at 1.5 ms per sample on average: 67 samples.
    EXPECT_EQ(r.samples.size(), 67u);
}

TEST(StoppingRule, DriftingStreamHitsMaxSamples) {
    // Each sample 1% slower than the one before: never converges.
    const auto r = feed(opts(5, 0.01, 1e9, 50), [](std::size_t i) { return 1e-3 * (1 + 0.01 * i); });
    EXPECT_EQ(r.reason, StopReason::MaxSamples);
    EXPECT_EQ(r.samples.size(), 50u);
}

TEST(StoppingRule, BudgetStretchesToReachMinSamples) {
    // 0.1 s samples, 0.25 s budget: 5 samples fit in the stretched 1.25 s.
    const auto r = feed(opts(5, 1e-9, 0.25), [](std::size_t i) { return i % 2 ? 0.1 : 0.11; });
    EXPECT_EQ(r.reason, StopReason::TimeBudget);
    EXPECT_EQ(r.samples.size(), 5u);
}

TEST(StoppingRule, BudgetCanStopBeforeMinSamples) {
    // 1-second samples against a 0.5 s budget (2.5 s stretched): stop at 3, and say why.
    const auto r = feed(opts(5, 0.01, 0.5), [](std::size_t) { return 1.0; });
    EXPECT_EQ(r.reason, StopReason::TimeBudget);
    EXPECT_EQ(r.samples.size(), 3u);
}

TEST(StoppingRule, OutlierDoesNotPreventConvergence) {
    // One slow sample among steady ones: the median's CI is robust to it.
    const auto r = feed(opts(7, 0.01, 10), [](std::size_t i) { return i == 2 ? 5e-3 : 1e-3; });
    EXPECT_EQ(r.reason, StopReason::Converged);
    // Up to n = 8 the 95% CI spans ranks 1..n and so the outlier; from n = 9
    // on it spans ranks 2..n-1 and excludes it.
    EXPECT_EQ(r.samples.size(), 9u);
}

TEST(StoppingRule, ReasonNames) {
    EXPECT_STREQ(to_string(StopReason::Converged), "converged");
    EXPECT_STREQ(to_string(StopReason::TimeBudget), "time_budget");
    EXPECT_STREQ(to_string(StopReason::MaxSamples), "max_samples");
}

TEST(StoppingRule, StopsForNoiseWhenTheTargetIsOutOfTheBudgetsReach) {
    StoppingOptions o;
    o.min_samples = 5;
    o.max_noise = 0.01;
    o.time_budget_s = 0.1;
    o.noise_limit_after = 10;
    // Samples alternating 1.0 and 1.2 ms: the CI stays ~9% wide. After 10
    // samples in 0.011 s the budget affords ~90; 1% would take ~830, more
    // than the margin of 4 budgets.
    StoppingRule rule(o);
    std::optional<StopReason> reason;
    std::size_t n = 0;
    while (!reason) {
        const double sample = n % 2 ? 1.2e-3 : 1.0e-3;  // before ++n: the arguments' order is unspecified
        reason = rule.add(sample, 1.1e-3 * static_cast<double>(++n));
    }
    EXPECT_EQ(*reason, StopReason::NoiseLimited);
    EXPECT_EQ(n, 10u);
    EXPECT_STREQ(to_string(StopReason::NoiseLimited), "noise_limited");
    // Off (0), the same stream samples on to the budget.
    o.noise_limit_after = 0;
    StoppingRule off(o);
    reason.reset();
    n = 0;
    while (!reason) {
        const double sample = n % 2 ? 1.2e-3 : 1.0e-3;
        reason = off.add(sample, 1.1e-3 * static_cast<double>(++n));
    }
    EXPECT_EQ(*reason, StopReason::TimeBudget);
    EXPECT_GT(n, 80u);
}

TEST(StoppingRule, AQuietStreamStillConvergesWithTheNoiseLimitOn) {
    StoppingOptions o;
    o.noise_limit_after = 10;
    StoppingRule rule(o);
    std::optional<StopReason> reason;
    std::size_t n = 0;
    while (!reason) {
        const double sample = 1e-3 * (1 + 0.001 * static_cast<double>(n % 3));
        reason = rule.add(sample, 1e-3 * static_cast<double>(++n));
    }
    EXPECT_EQ(*reason, StopReason::Converged);
}
