// A ladder's session is first prepared for the size where the cost model
// expects the ladder to stop, and prepared again for the largest size only
// when the ladder climbs past it (SizePlan::first_prepare_bytes): pinning the
// largest buffers for a copy that stops at 256 MiB cost an H100 run 0.3-0.4 s
// per record.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "curve_method.hpp"
#include "fake_method.hpp"
#include "run/engine.hpp"

using namespace hwcomm;

namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20;

// Bandwidth flat from 64 MiB on (the ladder stops at 256 MiB), or still
// rising 10% an octave there (it climbs to the largest size).
struct Curve {
    bool rising = false;
    std::size_t cap_on_second_prepare = 0;  // the second session holds at most this (free memory)
};

class CurveSession : public TransferSession {
public:
    CurveSession(Curve c, std::size_t max) : c_(c), max_(max) {}
    void warmup(std::size_t, const std::string&) override {}
    Sample measure(std::size_t bytes, const std::string&) override {
        const double b = static_cast<double>(bytes);
        double gbps = 100.0 * std::min(1.0, b / (64.0 * MiB));
        if (c_.rising && bytes > 64 * MiB) gbps *= std::pow(1.1, std::log2(b / (64.0 * MiB)));
        Sample s;
        s.bytes_per_rep = b;
        s.seconds = b / (gbps * 1e9);
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    nlohmann::json context() const override { return {{"buffer_bytes", max_}}; }
    std::size_t max_bytes() const override { return max_; }

private:
    Curve c_;
    std::size_t max_;
};

struct Outcome {
    std::vector<std::size_t> asked;
    Record record;
};

// One record of the curve over 1 MiB .. 1 GiB; `expected_stop` from the hook (0: no hook).
Outcome measure(Curve c, std::uint64_t expected_stop) {
    std::vector<std::size_t> asked;
    const test::CurveMethod method("curve", [&asked, c](std::size_t max) {
        asked.push_back(max);
        const std::size_t held = asked.size() > 1 && c.cap_on_second_prepare ? c.cap_on_second_prepare : max;
        return std::make_unique<CurveSession>(c, held);
    });
    EngineHooks hooks;
    if (expected_stop) hooks.expected_ladder_stop = [expected_stop](const PlannedRecord&) { return expected_stop; };
    Record record = test::run_curve(method, hooks);
    return {asked, std::move(record)};
}

using test::largest_point;

}  // namespace

TEST(StagedPrepare, ALadderThatStopsWhereExpectedIsPreparedOnceForThatSize) {
    const Outcome out = measure({}, 256 * MiB);
    EXPECT_EQ(out.asked, (std::vector<std::size_t>{256 * MiB}));
    EXPECT_EQ(largest_point(out.record), 256 * MiB);
    EXPECT_EQ(out.record.context.at("prepared").at("first_bytes"), 256 * MiB);
    EXPECT_FALSE(out.record.context.at("prepared").contains("grown_before_bytes"));
}

TEST(StagedPrepare, AnExpectedStopBetweenSizesPreparesForTheNextPlannedSize) {
    const Outcome out = measure({}, 384 * MiB);
    EXPECT_EQ(out.asked, (std::vector<std::size_t>{512 * MiB}));
}

TEST(StagedPrepare, ALadderClimbingPastTheExpectedStopIsPreparedAgainForTheLargestSize) {
    const Outcome out = measure({.rising = true}, 256 * MiB);
    EXPECT_EQ(out.asked, (std::vector<std::size_t>{256 * MiB, 1024 * MiB}));
    EXPECT_EQ(largest_point(out.record), 1024 * MiB);
    EXPECT_EQ(out.record.context.at("prepared").at("grown_before_bytes"), 512 * MiB);
    EXPECT_EQ(out.record.context.at("buffer_bytes"), 1024 * MiB);  // the context of the session that measured last
    EXPECT_EQ(out.record.status, "ok");
}

TEST(StagedPrepare, SizesTheLargerSessionCannotHoldAreSkippedAndNoted) {
    const Outcome out = measure({.rising = true, .cap_on_second_prepare = 512 * MiB}, 256 * MiB);
    EXPECT_EQ(largest_point(out.record), 512 * MiB);
    EXPECT_EQ(out.record.context.at("sizes_skipped_above_session_max"), nlohmann::json::array({1024 * MiB}));
}

TEST(StagedPrepare, WithoutAnExpectedStopOrWhenItIsTheLargestSizeTheSessionIsPreparedOnceForIt) {
    EXPECT_EQ(measure({}, 0).asked, (std::vector<std::size_t>{1024 * MiB}));
    EXPECT_EQ(measure({}, 1024 * MiB).asked, (std::vector<std::size_t>{1024 * MiB}));
    EXPECT_FALSE(measure({}, 0).record.context.contains("prepared"));
}
