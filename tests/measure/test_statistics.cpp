#include <gtest/gtest.h>

#include <cmath>

#include "measure/statistics.hpp"

using namespace hwcomm;

TEST(Statistics, OneToNine) {
    const SampleStats s = compute_stats({9, 1, 8, 2, 7, 3, 6, 4, 5});
    EXPECT_EQ(s.n, 9u);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 9);
    EXPECT_DOUBLE_EQ(s.median, 5);
    EXPECT_DOUBLE_EQ(s.q1, 3);
    EXPECT_DOUBLE_EQ(s.q3, 7);
    EXPECT_DOUBLE_EQ(s.mean, 5);
    EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(7.5));  // sample stdev: 60 / 8
    EXPECT_DOUBLE_EQ(s.cv, std::sqrt(7.5) / 5);
    // n = 9: P(Bin(9,1/2) <= 1) = 10/512 = 0.0195 <= 0.025 < P(<= 2) = 0.0898,
    // so the CI runs from the 2nd to the 8th order statistic.
    EXPECT_DOUBLE_EQ(s.ci95_low, 2);
    EXPECT_DOUBLE_EQ(s.ci95_high, 8);
}

TEST(Statistics, EvenCountInterpolates) {
    const SampleStats s = compute_stats({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.q1, 1.75);
    EXPECT_DOUBLE_EQ(s.q3, 3.25);
}

TEST(Statistics, SingleSampleHasZeroSpread) {
    const SampleStats s = compute_stats({2e-3});
    EXPECT_EQ(s.n, 1u);
    EXPECT_DOUBLE_EQ(s.median, 2e-3);
    EXPECT_DOUBLE_EQ(s.stdev, 0);
    EXPECT_DOUBLE_EQ(s.ci95_low, 2e-3);
    EXPECT_DOUBLE_EQ(s.ci95_high, 2e-3);
}

TEST(Statistics, EmptyThrows) { EXPECT_THROW(compute_stats({}), std::invalid_argument); }

TEST(Statistics, MedianOrZero) {
    EXPECT_EQ(median_or_zero({}), 0.0);
    EXPECT_DOUBLE_EQ(median_or_zero({3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median_or_zero({4, 1, 2, 3}), 2.5);
    EXPECT_THROW(median_value({}), std::invalid_argument);
}

TEST(MedianCi, ExactRanksForSmallSamples) {
    // Too few samples for 95%: the whole range.
    EXPECT_EQ(median_ci95_ranks(5), (std::pair<std::size_t, std::size_t>{1, 5}));
    // n = 6: P(X <= 0) = 1/64 = 0.0156 -> ranks 1..6 (coverage 96.9%).
    EXPECT_EQ(median_ci95_ranks(6), (std::pair<std::size_t, std::size_t>{1, 6}));
    // n = 10: P(X <= 1) = 11/1024 = 0.0107, P(X <= 2) = 56/1024 = 0.0547 -> 2..9.
    EXPECT_EQ(median_ci95_ranks(10), (std::pair<std::size_t, std::size_t>{2, 9}));
    // n = 20: P(X <= 5) = 0.0207, P(X <= 6) = 0.0577 -> 6..15 (textbook table).
    EXPECT_EQ(median_ci95_ranks(20), (std::pair<std::size_t, std::size_t>{6, 15}));
    // n = 100: the tables give 40..61.
    EXPECT_EQ(median_ci95_ranks(100), (std::pair<std::size_t, std::size_t>{40, 61}));
}

TEST(MedianCi, NormalApproximationForLargeSamples) {
    const auto [lo, hi] = median_ci95_ranks(10000);
    // n/2 -+ 1.96 sqrt(n)/2 = 5000 -+ 98.
    EXPECT_EQ(lo, 4902u);
    EXPECT_EQ(hi, 5099u);
}
