// A class's confirmations judged together (run/confirmation.hpp): the median
// and robust scatter of the class's links at each size decide, so noise that
// every link shares promotes nothing, a representative off its siblings does
// not drag them all into full sweeps, and one link unlike the rest still is.
#include <gtest/gtest.h>

#include "run/confirmation.hpp"
#include "timed_point.hpp"

using namespace hwcomm;

namespace {

constexpr std::uint64_t kPlateau = std::uint64_t{64} << 20;

// A link timed `small_s` at 1 B and moving `gbps` on the plateau.
Record link(const std::string& dst, double small_s, double gbps) {
    Record r;
    r.src = "gpu0";
    r.dst = dst;
    r.points = {test::timed_point(1, small_s), test::timed_point(kPlateau, static_cast<double>(kPlateau) / (gbps * 1e9))};
    return r;
}

using test::pointers;

std::size_t promoted(const std::vector<ConfirmationVerdict>& verdicts) {
    std::size_t n = 0;
    for (const auto& v : verdicts) n += v.promote;
    return n;
}

}  // namespace

// The staged peer copies of nvidia-h200-x4 (890987b): 13.6-18.5 us at 1 B over
// ten confirmations, the plateau within 1%. The class's scatter holds all but
// the three at its tails (the engine measures those again before promoting).
TEST(ClassJudgement, SmallSizeNoiseSharedByTheClassLeavesOnlyItsTails) {
    const Record rep = link("gpu1", 15.2e-6, 37.4);
    std::vector<Record> members;
    const double us[] = {13.6, 15.8, 14.0, 16.2, 15.9, 15.9, 16.1, 15.7, 15.6, 18.5};
    const double gbps[] = {37.3, 37.3, 37.6, 37.0, 37.3, 37.4, 37.4, 37.5, 37.2, 37.5};
    for (int i = 0; i < 10; ++i) members.push_back(link("gpu" + std::to_string(i + 2), us[i] * 1e-6, gbps[i]));
    const auto verdicts = judge_class(pointers(members), {}, rep);
    ASSERT_EQ(verdicts.size(), members.size());
    std::vector<std::size_t> flagged;
    for (std::size_t i = 0; i < verdicts.size(); ++i)
        if (verdicts[i].promote) flagged.push_back(i);
    EXPECT_EQ(flagged, (std::vector<std::size_t>{0, 2, 9}));  // 13.6, 14.0 and 18.5 us
    // Against the representative alone (5% and the clock's 0.5 us either side): two of them.
    std::size_t alone = 0;
    for (const Record& m : members) alone += judge_confirmation(m, rep).promote;
    EXPECT_EQ(alone, 2u);
    const nlohmann::json& small = verdicts[0].compared.at(0);
    EXPECT_EQ(small.at("class").at("links"), 11);
    EXPECT_GT(small.at("class").at("scatter").get<double>(), 0.02);
}

// Unified-memory prefetches of nvidia-h200-x4: 100-154 GB/s on the plateau
// from link to link. Against the representative (109.6) every one differs;
// against the class only the slowest, 3.5 robust sd below its median.
TEST(ClassJudgement, AScatteredClassFlagsOnlyWhatLiesBeyondItsOwnScatter) {
    const Record rep = link("gpu1", 60e-6, 109.6);
    std::vector<Record> members;
    const double gbps[] = {100.9, 151.0, 154.3, 143.6, 146.3, 145.1, 125.1, 140.5, 148.2, 115.0};
    for (int i = 0; i < 10; ++i) members.push_back(link("gpu" + std::to_string(i + 2), (50 + 4 * i) * 1e-6, gbps[i]));
    const auto verdicts = judge_class(pointers(members), {}, rep);
    EXPECT_EQ(promoted(verdicts), 1u);
    EXPECT_TRUE(verdicts[0].promote);
    std::size_t alone = 0;
    for (const Record& m : members) alone += judge_confirmation(m, rep).promote;
    EXPECT_EQ(alone, 10u);
}

TEST(ClassJudgement, OneLinkSlowOnThePlateauIsTheOnlyOnePromoted) {
    const Record rep = link("gpu1", 2.2e-6, 382.7);
    std::vector<Record> members;
    for (int i = 0; i < 10; ++i) members.push_back(link("gpu" + std::to_string(i + 2), 2.2e-6, 381.0 + 0.3 * i));
    members[6] = link("gpu8", 2.2e-6, 300.0);
    const auto verdicts = judge_class(pointers(members), {}, rep);
    EXPECT_EQ(promoted(verdicts), 1u);
    EXPECT_TRUE(verdicts[6].promote);
    EXPECT_NE(verdicts[6].reason.find("at 64 MiB"), std::string::npos) << verdicts[6].reason;
    EXPECT_NE(verdicts[6].reason.find("median of 11 links"), std::string::npos) << verdicts[6].reason;
}

// tma-copy-d2d on nvidia-h200-x4: the representative 3.7 us at 1 B, its
// siblings 2.7-2.9 us; the old rule promoted every one of them.
TEST(ClassJudgement, ARepresentativeOffItsSiblingsPromotesNoneAndIsNamed) {
    const Record rep = link("gpu1", 3.7e-6, 361.3);
    std::vector<Record> members;
    for (int i = 0; i < 10; ++i) members.push_back(link("gpu" + std::to_string(i + 2), (2.7 + 0.02 * i) * 1e-6, 361.5));
    const auto verdicts = judge_class(pointers(members), {}, rep);
    EXPECT_EQ(promoted(verdicts), 0u);
    EXPECT_TRUE(verdicts[0].compared.at(0).at("class").at("representative_outside").get<bool>());
    EXPECT_FALSE(verdicts[0].compared.at(1).at("class").at("representative_outside").get<bool>());
    std::size_t alone = 0;
    for (const Record& m : members) alone += judge_confirmation(m, rep).promote;
    EXPECT_EQ(alone, 10u);
}

// A pair of GPUs: one confirmation per class, judged against the representative.
TEST(ClassJudgement, WithTwoLinksTheRepresentativesBandDecides) {
    const Record rep = link("gpu1", 2.0e-6, 50.0);
    const std::vector<Record> slow = {link("gpu2", 2.0e-6, 45.0)}, alike = {link("gpu2", 2.0e-6, 49.0)};
    EXPECT_TRUE(judge_class(pointers(slow), {}, rep).at(0).promote);
    EXPECT_FALSE(judge_class(pointers(alike), {}, rep).at(0).promote);
    EXPECT_FALSE(judge_class(pointers(alike), {}, rep).at(0).compared.at(1).contains("class"));
    // Confirmations judged by an earlier run (a resumed file) join the class: the slow one stands out of three.
    const std::vector<Record> earlier = {link("gpu3", 2.0e-6, 50.2), link("gpu4", 2.0e-6, 49.9)};
    const auto v = judge_class(pointers(slow), pointers(earlier), rep);
    EXPECT_TRUE(v.at(0).promote);
    EXPECT_EQ(v.at(0).compared.at(1).at("class").at("links"), 4);
}

TEST(ClassJudgement, AFailedSizeIsPromotedWhateverTheClass) {
    const Record rep = link("gpu1", 2.0e-6, 50.0);
    std::vector<Record> members = {link("gpu2", 2.0e-6, 50.0), link("gpu3", 2.0e-6, 50.0)};
    members[1].points[1].status = "error";
    members[1].points[1].error = "verification failed";
    const auto verdicts = judge_class(pointers(members), {}, rep);
    EXPECT_FALSE(verdicts[0].promote);
    EXPECT_TRUE(verdicts[1].promote);
    EXPECT_NE(verdicts[1].reason.find("failed: verification failed"), std::string::npos) << verdicts[1].reason;
}

// A member measured twice is unlike its class only when it is outside again
// at a size where it was outside before, on the same side. nvidia-h200-x2 at
// 730d24c: um-demand gpu1->numa0 at 64 MiB 24.6% below gpu0->numa0, then
// 6.9% above (noise); memcpy-h2d pinned gpu1 at 203 KiB +28.4%, then +29.4%
// (a different link).
TEST(ClassJudgement, OutsideTwiceCountsOnlyAtOneSizeOnOneSide) {
    const Record rep = link("gpu0", 2.0e-6, 5.0);
    const auto judged = [&](double small_s, double gbps) {
        return judge_class(pointers({link("gpu1", small_s, gbps)}), {}, rep).at(0);
    };
    const ConfirmationVerdict below = judged(2.0e-6, 3.8), above = judged(2.0e-6, 5.35), within = judged(2.0e-6, 5.0);
    const ConfirmationVerdict slow_start = judged(4.0e-6, 5.0);
    ASSERT_TRUE(below.promote && above.promote && slow_start.promote);
    EXPECT_EQ(below.compared.at(1).at("side"), "below");
    EXPECT_EQ(above.compared.at(1).at("side"), "above");
    EXPECT_FALSE(within.compared.at(1).contains("side"));
    EXPECT_TRUE(outside_again(below, judged(2.0e-6, 3.9)));
    EXPECT_FALSE(outside_again(below, above));       // the other side
    EXPECT_FALSE(outside_again(below, slow_start));  // another size
    EXPECT_FALSE(outside_again(below, within));
    ConfirmationVerdict failed;
    failed.promote = failed.failed = true;
    EXPECT_TRUE(outside_again(below, failed));
}
