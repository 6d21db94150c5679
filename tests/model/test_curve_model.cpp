// The curve model on synthetic curves: what it must recover exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "model/curve_model.hpp"

using namespace hwcomm::model;

namespace {

// t = L + S / B at every power of two from 1 B to 1 GiB.
std::vector<Knot> hockney_curve(double latency_s, double gbps) {
    std::vector<Knot> k;
    for (std::uint64_t b = 1; b <= (1ull << 30); b *= 2)
        k.push_back({b, latency_s + static_cast<double>(b) / (gbps * 1e9), 0});
    return k;
}

}  // namespace

TEST(CurveModel, RecoversLatencyAndBandwidthOfAHockneyCurveWithinOnePercent) {
    const CurveFit f = fit_curve(hockney_curve(5e-6, 50.0));
    EXPECT_NEAR(f.latency_s, 5e-6, 5e-8);
    EXPECT_NEAR(f.asymptotic_gbps, 50.0, 0.5);
    EXPECT_LT(f.hockney_rel_rms, 1e-6);
    // Between sizes and past the largest one.
    for (std::uint64_t b : {3000ull, 3ull << 20, 3ull << 30}) {
        const double truth = 5e-6 + static_cast<double>(b) / 50e9;
        EXPECT_NEAR(predict_seconds(f, b) / truth, 1.0, 0.01) << b;
    }
    // Regimes: latency-bound while the time stays within 1.5x of 5 us (S <= 125 KB),
    // plateau from where every rate is within 10% of the top (S/B >= 9 L: 2.25 MB).
    EXPECT_EQ(f.latency_end_bytes, 65536u);
    EXPECT_EQ(f.plateau_start_bytes, 4u << 20);
    EXPECT_EQ(regime_at(f, 1024), Regime::LatencyBound);
    EXPECT_EQ(regime_at(f, 1u << 20), Regime::Ramp);
    EXPECT_EQ(regime_at(f, 1u << 30), Regime::Plateau);
}

TEST(CurveModel, LeaveOneOutErrorIsTheErrorOfTheCurveWithoutTheKnot) {
    std::vector<Knot> k{{1024, 1e-5, 0}, {2048, 2e-5, 0}, {4096, 8e-5, 0}};
    const CurveFit f = fit_curve(k);
    // Without 2048 the power law through 1024 and 4096 gives 1e-5 * 2^1.5 at 2048.
    EXPECT_NEAR(f.knots[1].loo_error, std::pow(2.0, 1.5) / 2.0 - 1, 1e-9);
    // Without 1024 the floor is the 2048 time: twice the truth.
    EXPECT_NEAR(f.knots[0].loo_error, 1.0, 1e-9);
    const CurvePrediction p = predict(f, 3000);
    EXPECT_NEAR(p.rel_error, std::max(std::abs(f.knots[1].loo_error), std::abs(f.knots[2].loo_error)), 1e-12);
}

TEST(CurveModel, DuplexBytesCountTwiceInTheRate) {
    auto k = hockney_curve(1e-6, 100.0);
    const CurveFit f = fit_curve(k, 2.0);  // the same times moved twice the bytes
    EXPECT_NEAR(f.plateau_gbps, 200.0, 200.0 * 0.02);
}
