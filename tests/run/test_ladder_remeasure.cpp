// A ladder point from 64 MiB whose samples spread far wider than the record's
// other points from 16 MiB (a transient on the host), or whose median dips
// more than 2% below the next smaller point from 64 MiB, is measured once more
// and the second kept, the first named in context.remeasured, once per record;
// on a curve noisy everywhere, or below 64 MiB, nothing is measured twice.
// Planted curves, no GPU.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "curve_method.hpp"
#include "fake_method.hpp"
#include "run/engine.hpp"

using namespace hwcomm;

namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20;

enum class Noise {
    None,
    FirstVisitAt128MiB,
    FirstVisitsAt128And256MiB,
    FirstVisitAt8MiB,
    Everywhere,
    FirstVisitDipsAt128MiB,  // quiet samples, 5% low: a transient
    FallsFrom128MiB,         // quiet samples, 5% low at every visit: the curve's own
};

// 100 GB/s from 64 MiB on, rising linearly below. Noisy samples alternate
// between 60% and 100% of the rate, so the median's 95% CI spans both.
class NoisySession : public TransferSession {
public:
    explicit NoisySession(Noise n) : noise_(n) {}
    void warmup(std::size_t bytes, const std::string&) override { ++visits_[bytes]; }
    Sample measure(std::size_t bytes, const std::string&) override {
        const double b = static_cast<double>(bytes);
        double gbps = 100.0 * std::min(1.0, b / (64.0 * MiB));
        const bool first = visits_[bytes] == 1;
        const bool noisy = noise_ == Noise::Everywhere ||
                           (first && bytes == 128 * MiB &&
                            (noise_ == Noise::FirstVisitAt128MiB || noise_ == Noise::FirstVisitsAt128And256MiB)) ||
                           (first && bytes == 256 * MiB && noise_ == Noise::FirstVisitsAt128And256MiB) ||
                           (first && bytes == 8 * MiB && noise_ == Noise::FirstVisitAt8MiB);
        if (noisy && (++samples_ % 2 == 0)) gbps *= 0.6;
        if ((noise_ == Noise::FirstVisitDipsAt128MiB && first && bytes == 128 * MiB) ||
            (noise_ == Noise::FallsFrom128MiB && bytes >= 128 * MiB))
            gbps *= 0.95;
        Sample s;
        s.bytes_per_rep = b;
        s.seconds = b / (gbps * 1e9);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    std::size_t max_bytes() const override { return 1024 * MiB; }

private:
    Noise noise_;
    std::map<std::size_t, int> visits_;
    std::size_t samples_ = 0;
};

Record measure(Noise n) {
    const test::CurveMethod method("noisy-curve", [n](std::size_t) { return std::make_unique<NoisySession>(n); });
    return test::run_curve(method, {}, [](RunOptions& o) { o.stopping.max_samples = 50; });
}

const Point* point_at(const Record& r, std::uint64_t bytes) {
    for (const Point& p : r.points)
        if (p.bytes == bytes) return &p;
    return nullptr;
}

// What both re-measure rules leave behind when 128 MiB was the transient: one
// entry, at 128 MiB, its second measurement (100 GB/s) the record's only point
// there, and the ladder stopped at its plateau (64, 128 and 256 MiB within 2%).
void expect_remeasured_once_at_128MiB(const Record& r) {
    ASSERT_TRUE(r.context.contains("remeasured")) << r.context.dump();
    ASSERT_EQ(r.context.at("remeasured").size(), 1u);
    EXPECT_EQ(r.context.at("remeasured")[0].at("bytes"), 128 * MiB);
    const Point* kept = point_at(r, 128 * MiB);
    ASSERT_NE(kept, nullptr);
    EXPECT_NEAR(kept->bandwidth_gbps, 100.0, 1e-6);
    EXPECT_EQ(std::count_if(r.points.begin(), r.points.end(), [](const Point& p) { return p.bytes == 128 * MiB; }), 1);
    EXPECT_EQ(test::largest_point(r), 256 * MiB);
}

}  // namespace

TEST(LadderRemeasure, AWidePointAmongQuietOnesIsMeasuredOnceMoreAndTheLadderStopsAtItsPlateau) {
    const Record r = measure(Noise::FirstVisitAt128MiB);
    ASSERT_NO_FATAL_FAILURE(expect_remeasured_once_at_128MiB(r));
    const nlohmann::json& first = r.context.at("remeasured")[0];
    EXPECT_NEAR(first.at("first_gbps").get<double>(), 75.0, 0.5);  // 2 / (1/100 + 1/60): the mean time of the two rates
    EXPECT_GT(first.at("first_ci95_half_width").get<double>(), 0.1);
}

TEST(LadderRemeasure, ACurveNoisyEverywhereIsNotMeasuredTwice) {
    const Record r = measure(Noise::Everywhere);
    EXPECT_FALSE(r.context.contains("remeasured")) << r.context.at("remeasured").dump();
}

TEST(LadderRemeasure, AQuietCurveIsNotMeasuredTwice) {
    const Record r = measure(Noise::None);
    EXPECT_FALSE(r.context.contains("remeasured"));
    EXPECT_EQ(test::largest_point(r), 256 * MiB);
}

TEST(LadderRemeasure, AWidePointBelowThePlateauRegionIsNotMeasuredTwice) {
    const Record r = measure(Noise::FirstVisitAt8MiB);  // below 64 MiB: the plateau rule does not look there
    EXPECT_FALSE(r.context.contains("remeasured"));
}

TEST(LadderRemeasure, ARecordMeasuresOnePointTwiceAtMost) {
    const Record r = measure(Noise::FirstVisitsAt128And256MiB);
    ASSERT_TRUE(r.context.contains("remeasured"));
    EXPECT_EQ(r.context.at("remeasured").size(), 1u);
    EXPECT_EQ(r.context.at("remeasured")[0].at("bytes"), 128 * MiB);
}

TEST(LadderRemeasure, AQuietDipBelowTheSmallerSizeIsMeasuredOnceMoreAndTheLadderStopsAtItsPlateau) {
    const Record r = measure(Noise::FirstVisitDipsAt128MiB);
    ASSERT_NO_FATAL_FAILURE(expect_remeasured_once_at_128MiB(r));  // the plateau holds once the dip is gone
    const nlohmann::json& first = r.context.at("remeasured")[0];
    EXPECT_NEAR(first.at("first_gbps").get<double>(), 95.0, 1e-6);
    EXPECT_NE(first.at("rule").get<std::string>().find("below the next smaller point"), std::string::npos);
}

TEST(LadderRemeasure, AFallThatRepeatsIsKeptAndTheLadderGoesOnToItsPlateau) {
    const Record r = measure(Noise::FallsFrom128MiB);
    ASSERT_TRUE(r.context.contains("remeasured"));
    EXPECT_EQ(r.context.at("remeasured").size(), 1u);
    const Point* kept = point_at(r, 128 * MiB);
    ASSERT_NE(kept, nullptr);
    EXPECT_NEAR(kept->bandwidth_gbps, 95.0, 1e-6);  // measured again, the same: the curve's own
    EXPECT_EQ(test::largest_point(r), 512 * MiB);   // 128, 256 and 512 MiB within 2%
}
