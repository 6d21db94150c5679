// The adaptive ladder on planted curves: where it refines, where it stops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <bit>
#include <functional>

#include "measure/size_ladder.hpp"
#include "measure/sweep.hpp"

using namespace hwcomm;
using Sizes = std::vector<std::uint64_t>;

namespace {

constexpr std::uint64_t MiB = 1 << 20;

// The run's default sizes (octaves) and the third-octave points between them.
Sizes octaves() { return sweep_sizes(SweepOptions{}); }
Sizes thirds() {
    SweepOptions o;
    o.points_per_octave = 3;
    return sweep_sizes(o);
}

// Climbs the ladder on `curve`; returns the sizes measured, ascending.
Sizes climb(SizeLadder& ladder, const std::function<std::optional<double>(std::uint64_t)>& curve) {
    Sizes measured;
    while (const auto b = ladder.next()) {
        measured.push_back(*b);
        ladder.add(*b, curve(*b));
    }
    std::sort(measured.begin(), measured.end());
    return measured;
}

// Latency plus bytes over a link rate: bandwidth in GB/s.
std::optional<double> link(std::uint64_t bytes, double latency_s, double gbps) {
    return static_cast<double>(bytes) / (latency_s + static_cast<double>(bytes) / (gbps * 1e9)) / 1e9;
}

bool is_power_of_two(std::uint64_t v) { return v && !(v & (v - 1)); }

}  // namespace

TEST(SizeLadder, StopsOnceThreeOctavesAgreeWithin2PercentFrom256MiB) {
    // A PCIe-like copy: 2 us, 55 GB/s. From 8 MiB on it is within 2%.
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes got = climb(ladder, [](std::uint64_t b) { return link(b, 2e-6, 55); });
    EXPECT_TRUE(ladder.plateau_reached());
    EXPECT_EQ(got.back(), 256 * MiB);  // the first octave >= 256 MiB; nothing above it
    EXPECT_EQ(ladder.summary().at("stop"), "plateau: 64 MiB to 256 MiB within 2%");
    // Every octave from 1 B to 256 MiB is there (29 sizes)...
    EXPECT_EQ(std::count_if(got.begin(), got.end(), is_power_of_two), 29);
    // ...and the intermediate sizes only around the bend (latency-bound below, flat above).
    for (std::uint64_t b : got)
        if (!is_power_of_two(b)) {
            EXPECT_GT(b, 16u * 1024) << b;
            EXPECT_LT(b, 2 * MiB) << b;
        }
    EXPECT_GT(got.size(), 27u);
}

TEST(SizeLadder, ASlowRiseToTheLargestSizeIsNeverCutShort) {
    // A curve still rising by more than 2% per octave at 1 GiB: no plateau before the end.
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes got = climb(ladder, [](std::uint64_t b) { return link(b, 0.4e-3, 400); });
    EXPECT_EQ(got.back(), std::uint64_t{1} << 30);
}

TEST(SizeLadder, AFallingCacheEdgeIsRefinedAndKeepsItGoing) {
    // Cache-resident up to 32 MiB (500 GB/s), DRAM from 128 MiB (100 GB/s).
    SizeLadder ladder(octaves(), thirds(), {});
    const auto curve = [](std::uint64_t b) -> std::optional<double> {
        if (b <= 32 * MiB) return 500.0;
        if (b >= 128 * MiB) return 100.0;
        return 250.0;
    };
    const Sizes got = climb(ladder, curve);
    // The drop between 32 and 64 MiB and between 64 and 128 MiB is refined.
    EXPECT_NE(std::find_if(got.begin(), got.end(), [](std::uint64_t b) { return b > 32 * MiB && b < 64 * MiB; }),
              got.end());
    // 128, 256, 512 MiB agree: the plateau holds at 512 MiB.
    EXPECT_EQ(got.back(), 512 * MiB);
    EXPECT_TRUE(ladder.plateau_reached());
}

TEST(SizeLadder, FailedSizesNeitherBendNorHoldAPlateau) {
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes got = climb(ladder, [](std::uint64_t b) -> std::optional<double> {
        if (b == 128 * MiB) return std::nullopt;  // one failed size inside the plateau
        return link(b, 2e-6, 55);
    });
    // 32 and 64 MiB, then 128 MiB failed: the run of agreeing sizes starts again at 256 MiB.
    EXPECT_EQ(got.back(), std::uint64_t{1} << 30);
}

TEST(SizeLadder, EverySecondOctaveWithStepTwo) {
    LadderOptions o;
    o.octave_step = 2;
    SizeLadder ladder(octaves(), thirds(), o);
    for (std::uint64_t b : ladder.octave_sizes())
        if (b != 1 && b != (std::uint64_t{1} << 30)) {
            EXPECT_EQ(std::bit_width(b) % 2, 1) << b;  // 4^k
        }
    EXPECT_EQ(ladder.octave_sizes().size(), 16u);  // 1, 4, 16 ... 1 GiB
}

// With every second octave first (the budget's coarse ladders), a step that
// bends measures the octave skipped inside it, and the sizes between only in a
// half that still bends: a noisy step between 256 MiB and 1 GiB bought all
// five sizes there (nvidia-h200-x2 under --budget 90s, e021a7c: disk reads and
// pageable copies 0.4-1 s each).
TEST(SizeLadder, WithStepTwoABendMeasuresTheSkippedOctaveFirst) {
    LadderOptions o;
    o.octave_step = 2;
    // Rising 3% an octave (no bend, no plateau) to 256 MiB, then 25% higher from
    // 512 MiB on: the step 256 MiB -> 1 GiB bends, and of its halves only 256 -> 512 MiB.
    const auto curve = [](std::uint64_t b) -> double {
        const double up_to = 10 * std::pow(1.03, std::log2(static_cast<double>(std::min<std::uint64_t>(b, 256 * MiB))));
        return b >= 512 * MiB ? 1.25 * up_to : up_to;
    };
    SizeLadder ladder(octaves(), thirds(), o);
    const Sizes got = climb(ladder, [&](std::uint64_t b) -> std::optional<double> { return curve(b); });
    Sizes past;
    for (std::uint64_t b : got)
        if (b > 256 * MiB) past.push_back(b);
    // 512 MiB, the sizes between 256 and 512 MiB, 1 GiB; none between 512 MiB and
    // 1 GiB (the sizes between 256 MiB and 1 GiB all measured, before).
    ASSERT_GE(past.size(), 3u);
    EXPECT_EQ(past.back(), 1024 * MiB);
    EXPECT_TRUE(std::find(past.begin(), past.end(), 512 * MiB) != past.end());
    for (std::uint64_t b : past) EXPECT_FALSE(b > 512 * MiB && b < 1024 * MiB) << b;
    EXPECT_TRUE(std::any_of(past.begin(), past.end(), [](std::uint64_t b) { return b > 256 * MiB && b < 512 * MiB; }));

    // Noise: points +-8% (their CIs) and 25% from 256 MiB to 1 GiB beyond both,
    // the skipped octave halfway: neither half steps beyond its CIs, so one
    // size is measured between them, not five.
    SizeLadder noisy(octaves(), thirds(), o);
    Sizes between;
    while (const auto b = noisy.next()) {
        if (*b > 256 * MiB && *b < 1024 * MiB) between.push_back(*b);
        const double v = *b <= 256 * MiB ? curve(*b) : curve(256 * MiB) * (*b == 512 * MiB ? 1.12 : 1.25);
        noisy.add(*b, v, *b >= 256 * MiB ? 0.08 : 0.0);
    }
    EXPECT_EQ(between, (Sizes{512 * MiB}));

    // Every octave first (the default): the sizes between two octaves are measured at once, as before.
    SizeLadder every(octaves(), thirds(), {});
    const Sizes all = climb(every, [&](std::uint64_t b) -> std::optional<double> { return curve(b); });
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](std::uint64_t b) { return b > 256 * MiB && b < 512 * MiB; }));
}

TEST(SizeLadder, ExpectedSizesEndAtTheFirstOctaveOfTheExpectedStop) {
    const Sizes c = octaves();
    EXPECT_EQ(expected_ladder_sizes(c, {}, 512 * MiB).back(), 512 * MiB);
    EXPECT_EQ(expected_ladder_sizes(c, {}, 384 * MiB).back(), 512 * MiB);
    EXPECT_EQ(expected_ladder_sizes(c, {}, 512 * MiB).size(), 30u);
    EXPECT_EQ(expected_ladder_sizes(c, {}, 64 * MiB).size(), 29u);  // never below the plateau's 256 MiB
}

namespace {

// A disk-like curve: latency-bound to 16 MiB, then flat at 1 GB/s with each
// octave off by +-`wobble` in alternating signs, every point's CI +-8% there.
Sizes climb_noisy(SizeLadder& ladder, double wobble) {
    Sizes measured;
    int i = 0;
    while (const auto b = ladder.next()) {
        measured.push_back(*b);
        const bool flat = *b >= 16 * MiB;
        const double gbps = flat ? (i++ % 2 ? 1 + wobble : 1 - wobble) : *link(*b, 20e-6, 1.0);
        ladder.add(*b, gbps, flat ? 0.08 : 0.0);
    }
    return measured;
}

}  // namespace

TEST(SizeLadder, AStepWithinBothPointsCisIsNoBend) {
    // +-6%: a 13% step between octaves, a bend's slope, but inside two 8% CIs.
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes measured = climb_noisy(ladder, 0.06);
    for (std::uint64_t b : measured)
        if (b >= 16 * MiB) {
            EXPECT_TRUE(is_power_of_two(b)) << b << " refined on noise";
        }
    // The same steps measured exactly are bends: refined.
    SizeLadder exact(octaves(), thirds(), {});
    Sizes refined;
    int i = 0;
    while (const auto b = exact.next()) {
        const bool flat = *b >= 16 * MiB;
        if (flat && !is_power_of_two(*b)) refined.push_back(*b);
        exact.add(*b, flat ? (i++ % 2 ? 1.06 : 0.94) : *link(*b, 20e-6, 1.0));
    }
    EXPECT_FALSE(refined.empty());
}

TEST(SizeLadder, OverlappingCisHoldAPlateauThatTwoPercentWouldNot) {
    // +-4%: 8% apart, beyond 2% but within the CIs and the 10% cap.
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes measured = climb_noisy(ladder, 0.04);
    EXPECT_TRUE(ladder.plateau_reached());
    EXPECT_EQ(*std::max_element(measured.begin(), measured.end()), 256 * MiB);
    EXPECT_EQ(ladder.summary().at("stop"), "plateau: 64 MiB to 256 MiB within their 95% CIs");
}

TEST(SizeLadder, WideCisDoNotHideARiseBeyondTheNoisyCap) {
    // Rising 15% per octave with +-20% CIs: overlapping, but more than the 10% cap.
    SizeLadder ladder(octaves(), {}, {});
    while (const auto b = ladder.next()) {
        const double gbps = std::pow(1.15, std::log2(static_cast<double>(*b)));
        ladder.add(*b, gbps, 0.2);
    }
    EXPECT_FALSE(ladder.plateau_reached());
    EXPECT_EQ(ladder.summary().at("stop"), "largest size");
}

namespace {

// Flat at 2 GB/s from 16 MiB with every point tight (CI 1%) but off by +-10%
// in a fixed, irregular order: a virtual disk's drift from one size to the
// next, which no point's own CI shows. `edge`: from 512 MiB on, half the rate.
Sizes climb_drifting(SizeLadder& ladder, bool edge) {
    const double drift[] = {+0.10, -0.08, +0.02, -0.10, +0.09, -0.03, +0.10, -0.09};
    Sizes measured;
    while (const auto b = ladder.next()) {
        measured.push_back(*b);
        if (*b < 16 * MiB) {
            ladder.add(*b, *link(*b, 20e-6, 2.0), 0.0);
            continue;
        }
        const int octave = std::bit_width(*b) - 25;  // 16 MiB: 0
        const double base = edge && *b >= 512 * MiB ? 1.0 : 2.0;
        ladder.add(*b, base * (1 + drift[std::clamp(octave, 0, 7)]), 0.01);
    }
    return measured;
}

}  // namespace

TEST(SizeLadder, ScatterBetweenNeighbouringOctavesBuysNoIntermediatesOnceItIsKnown) {
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes measured = climb_drifting(ladder, false);
    // Until six octave sizes from 16 MiB are known, a 10% step beyond the CIs is a bend...
    EXPECT_TRUE(std::any_of(measured.begin(), measured.end(),
                            [](std::uint64_t b) { return b > 16 * MiB && b < 512 * MiB && !is_power_of_two(b); }));
    // ...then the steps 256 -> 512 MiB -> 1 GiB lie within the scatter between octaves.
    for (std::uint64_t b : measured)
        if (b > 256 * MiB) {
            EXPECT_TRUE(is_power_of_two(b)) << b << " refined on drift";
        }
    const auto summary = ladder.summary();
    ASSERT_TRUE(summary.contains("bend_within_scatter_above"));
    EXPECT_EQ(summary.at("bend_within_scatter_above").back(), 512 * MiB);
    // Without the scatter rule (scatter_points 0) the same drift is refined there.
    LadderOptions off;
    off.scatter_points = 0;
    SizeLadder plain(octaves(), thirds(), off);
    const Sizes refined = climb_drifting(plain, false);
    EXPECT_TRUE(std::any_of(refined.begin(), refined.end(), [](std::uint64_t b) { return b > 512 * MiB && !is_power_of_two(b); }));
}

TEST(SizeLadder, ARealEdgeAmongTheScatterIsStillRefined) {
    // The same drift with the rate halved from 512 MiB (a last-level cache's
    // edge): the 256 -> 512 MiB step is far beyond the scatter.
    SizeLadder ladder(octaves(), thirds(), {});
    const Sizes measured = climb_drifting(ladder, true);
    EXPECT_TRUE(std::any_of(measured.begin(), measured.end(),
                            [](std::uint64_t b) { return b > 256 * MiB && b < 512 * MiB; }));
}

namespace {

// A unified-memory-like curve that bends up to 256 MiB and creeps on (one
// H100, um-prefetch: 46.3, 47.3, 47.5, 48.3 GB/s at 128 MiB to 1 GiB), each
// point taking `seconds(bytes)`.
Sizes climb_creeping(SizeLadder& ladder, const std::function<double(std::uint64_t)>& seconds) {
    Sizes measured;
    while (const auto b = ladder.next()) {
        measured.push_back(*b);
        const double gbps = *b >= 1024 * MiB ? 48.3 : *b >= 512 * MiB ? 47.5 : *b >= 256 * MiB ? 47.3
                            : *b >= 128 * MiB ? 46.3 : *link(*b, 5e-6, 46.3);
        ladder.add(*b, gbps, 0.005, seconds(*b));
    }
    std::sort(measured.begin(), measured.end());
    return measured;
}

}  // namespace

TEST(SizeLadder, ACostlyPointAgreeingWithTheOctaveBelowEndsTheLadder) {
    // 512 MiB took 0.42 s and lies within 2% of 256 MiB: 1 GiB is not measured.
    SizeLadder costly(octaves(), {}, {});
    const Sizes got = climb_creeping(costly, [](std::uint64_t b) { return b >= 512 * MiB ? 0.42 : 0.1; });
    EXPECT_TRUE(costly.plateau_reached());
    EXPECT_EQ(got.back(), 512 * MiB);
    EXPECT_EQ(costly.summary().at("stop"),
              "plateau: 256 MiB to 512 MiB within 2%, two sizes: 512 MiB took 0.42 s, the next about twice that");
    // The same curve, every point quick: three octaves never agree within 2%, so it climbs to the end.
    SizeLadder quick(octaves(), {}, {});
    EXPECT_EQ(climb_creeping(quick, [](std::uint64_t) { return 0.1; }).back(), 1024 * MiB);
    EXPECT_FALSE(quick.plateau_reached());
    // Off: as quick.
    LadderOptions off;
    off.costly_point_s = 0;
    SizeLadder never(octaves(), {}, off);
    EXPECT_EQ(climb_creeping(never, [](std::uint64_t) { return 5.0; }).back(), 1024 * MiB);
}

TEST(SizeLadder, ACostlyPointBelowThePlateauSizeOrAwayFromItsNeighbourGoesOn) {
    // 256 MiB costly and within 2% of 128 MiB: 128 MiB is below plateau_min_bytes, the ladder goes on.
    SizeLadder early(octaves(), {}, {});
    Sizes got;
    while (const auto b = early.next()) {
        got.push_back(*b);
        const double gbps = *b >= 512 * MiB ? 60.0 : *b >= 128 * MiB ? 50.0 : *b >= 64 * MiB ? 45.0 : *link(*b, 5e-6, 45);
        early.add(*b, gbps, 0.005, *b >= 256 * MiB ? 0.5 : 0.05);
    }
    EXPECT_EQ(*std::max_element(got.begin(), got.end()), 1024 * MiB) << "512 MiB rose 20%: no plateau at 512 MiB";
    // A costly 512 MiB point 5% above 256 MiB, tight CIs: still rising, 1 GiB is measured.
    SizeLadder rising(octaves(), {}, {});
    got.clear();
    while (const auto b = rising.next()) {
        got.push_back(*b);
        const double gbps = *b >= 1024 * MiB ? 52.0 : *b >= 512 * MiB ? 50.0 : *b >= 256 * MiB ? 47.6 : *link(*b, 5e-6, 45);
        rising.add(*b, gbps, 0.005, 0.6);
    }
    EXPECT_EQ(*std::max_element(got.begin(), got.end()), 1024 * MiB);
    EXPECT_FALSE(rising.plateau_reached());
}
