// How far apart curves that should be alike lie (analyze's identical-links
// and GPU anisotropy cells): a link consistently off the others shows by its
// offset, curves that cross from size to size do not add their per-size
// differences up, and the fastest and slowest named are the offset ones.
#include <gtest/gtest.h>

#include "analyze/study_internal.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {


Series series(const std::string& key, std::map<std::uint64_t, double> window) {
    Series s;
    s.key = key;
    s.window_points = std::move(window);
    return s;
}

}  // namespace

// Two pageable D2H links of nvidia-h200-x2 (e021a7c) read 10.8 GB/s both in
// their window medians while 20-40% apart at each size, one ahead at some
// sizes, the other at the rest: no consistent difference.
TEST(GroupSpread, CurvesThatCrossFromSizeToSizeAreNotApart) {
    const Series a = series("a", {{64 * kMiB, 13.0}, {128 * kMiB, 9.0}, {256 * kMiB, 12.0}, {512 * kMiB, 9.5}});
    const Series b = series("b", {{64 * kMiB, 9.5}, {128 * kMiB, 12.5}, {256 * kMiB, 9.0}, {512 * kMiB, 12.5}});
    const auto g = group_spread({&a, &b}, VerdictRule{});
    ASSERT_TRUE(g);
    EXPECT_EQ(g->sizes, 4u);
    EXPECT_LT(g->spread, 0.05);  // per size they differ by 32-39%
}

TEST(GroupSpread, ALinkConsistentlyOffItsClassShowsByItsOffsetAndIsNamed) {
    // Three links alike within 1% and one 20% slower at every size, the curves rising alike.
    std::vector<Series> links;
    for (const auto& [key, factor] : std::vector<std::pair<std::string, double>>{
             {"gpu1", 1.0}, {"gpu2", 1.01}, {"gpu3", 0.995}, {"gpu4", 0.8}})
        links.push_back(series(key, {{64 * kMiB, 300 * factor}, {128 * kMiB, 320 * factor}, {256 * kMiB, 330 * factor}}));
    std::vector<const Series*> group;
    for (const Series& s : links) group.push_back(&s);
    const auto g = group_spread(group, VerdictRule{});
    ASSERT_TRUE(g);
    EXPECT_EQ(g->slowest->key, "gpu4");
    EXPECT_EQ(g->fastest->key, "gpu2");
    EXPECT_NEAR(g->spread, 1.01 / 0.8 - 1, 1e-9);
    EXPECT_DOUBLE_EQ(g->slowest_gbps, 320 * 0.8);  // its median over the three sizes
    EXPECT_DOUBLE_EQ(g->fastest_gbps, 320 * 1.01);
}

TEST(GroupSpread, OnlySizesEveryLinkMeasuredCountAndNoneSharedIsNoAnswer) {
    // A confirmation measured at 64 MiB only beside a full sweep: one common size.
    const Series full = series("rep", {{64 * kMiB, 50.0}, {128 * kMiB, 52.0}, {256 * kMiB, 53.0}});
    const Series confirmed = series("member", {{64 * kMiB, 45.0}});
    const auto g = group_spread({&full, &confirmed}, VerdictRule{});
    ASSERT_TRUE(g);
    EXPECT_EQ(g->sizes, 1u);
    EXPECT_NEAR(g->spread, 50.0 / 45.0 - 1, 1e-9);
    const Series elsewhere = series("other", {{512 * kMiB, 40.0}});
    EXPECT_FALSE(group_spread({&full, &elsewhere}, VerdictRule{}));
    EXPECT_FALSE(group_spread({&full}, VerdictRule{}));
}
