// The progress line's ETA (run/progress.hpp): the plan's estimate of what is
// left, scaled by how the records so far took against theirs; units left at
// the mean time per unit when the plan gave none.
#include <gtest/gtest.h>

#include "run/progress.hpp"

using namespace hwcomm;

TEST(ProgressEta, WhatIsLeftOfThePlanScaledByHowTheRunSoFarTookAgainstIt) {
    // Before any step is done: the plan's estimate as it stands.
    EXPECT_DOUBLE_EQ(eta_seconds(3.0, 120.0, 0.0, 100, 0), 120.0);
    // 2x H200 at f3424de: the CPU methods, planned 24.3 s, took 39.9 s: what is
    // left (87.7 s of the plan) takes 1.64 times its estimate.
    EXPECT_NEAR(eta_seconds(39.9, 112.0, 24.3, 141, 15), 87.7 * 39.9 / 24.3, 1e-9);
    // Faster than planned: less left.
    EXPECT_DOUBLE_EQ(eta_seconds(30.0, 100.0, 60.0, 10, 6), 20.0);
    // The plan's steps all behind it (the last judgement still running): nothing left.
    EXPECT_DOUBLE_EQ(eta_seconds(130.0, 112.0, 112.0, 141, 141), 0.0);
    EXPECT_DOUBLE_EQ(eta_seconds(130.0, 112.0, 112.5, 141, 141), 0.0);  // rounding: never negative
}

TEST(ProgressEta, WithoutThePlansEstimatesTheUnitsLeftAtTheMeanTimePerUnit) {
    EXPECT_LT(eta_seconds(0.5, 0.0, 0.0, 40, 0), 0.0);  // not known yet
    EXPECT_DOUBLE_EQ(eta_seconds(10.0, 0.0, 0.0, 40, 10), 30.0);
    EXPECT_DOUBLE_EQ(eta_seconds(10.0, 0.0, 0.0, 40, 40), 0.0);
    EXPECT_DOUBLE_EQ(eta_seconds(10.0, 0.0, 0.0, 40, 50), 0.0);  // skipped units past the total
}
