#include <gtest/gtest.h>

#include "core/error.hpp"
#include "measure/sweep.hpp"

using namespace hwcomm;
using Sizes = std::vector<std::uint64_t>;

TEST(Sweep, DefaultIsEveryPowerOfTwoFromOneByteToOneGiB) {
    const Sizes s = sweep_sizes(SweepOptions{});
    ASSERT_EQ(s.size(), 31u);
    EXPECT_EQ(s.front(), 1u);
    EXPECT_EQ(s[10], 1024u);
    EXPECT_EQ(s.back(), std::uint64_t{1} << 30);
}

TEST(Sweep, ThreePointsPerOctave) {
    SweepOptions o;
    o.min_bytes = 1024;
    o.max_bytes = 4096;
    o.points_per_octave = 3;
    // 1024 * 2^(1/3) = 1290.16, 1024 * 2^(2/3) = 1625.50
    EXPECT_EQ(sweep_sizes(o), (Sizes{1024, 1290, 1625, 2048, 2580, 3251, 4096}));
}

TEST(Sweep, QuickIsEveryFourX) {
    SweepOptions o;
    o.min_bytes = 4096;
    o.max_bytes = 64 << 20;
    o.octave_step = 2;
    const Sizes s = sweep_sizes(o);
    EXPECT_EQ(s, (Sizes{4096, 16384, 65536, 262144, 1 << 20, 4 << 20, 16 << 20, 64 << 20}));
}

TEST(Sweep, EndsOffTheGridAreKept) {
    SweepOptions o;
    o.min_bytes = 1000;
    o.max_bytes = 5000;
    EXPECT_EQ(sweep_sizes(o), (Sizes{1000, 1024, 2048, 4096, 5000}));
    o.min_bytes = o.max_bytes = 77;
    EXPECT_EQ(sweep_sizes(o), (Sizes{77}));
}

TEST(Sweep, BadRangesAreUsageErrors) {
    SweepOptions o;
    o.min_bytes = 4096;
    o.max_bytes = 1024;
    EXPECT_THROW(sweep_sizes(o), UsageError);
    o.min_bytes = 0;
    EXPECT_THROW(sweep_sizes(o), UsageError);
    o = SweepOptions{};
    o.points_per_octave = 2;
    EXPECT_THROW(sweep_sizes(o), UsageError);
}

TEST(Sweep, CapByFreeMemory) {
    EXPECT_EQ(cap_sizes({1, 2, 4, 8}, 5), (Sizes{1, 2, 4}));
    EXPECT_EQ(cap_sizes({64, 128}, 10), (Sizes{64}));  // never empty
}

TEST(ParseSize, SuffixesAreBinary) {
    EXPECT_EQ(parse_size("1"), 1u);
    EXPECT_EQ(parse_size("4096"), 4096u);
    EXPECT_EQ(parse_size("1K"), 1024u);
    EXPECT_EQ(parse_size("1k"), 1024u);
    EXPECT_EQ(parse_size("64MiB"), 64u << 20);
    EXPECT_EQ(parse_size("64MB"), 64u << 20);
    EXPECT_EQ(parse_size("1G"), 1u << 30);
    EXPECT_EQ(parse_size("2GiB"), std::uint64_t{2} << 30);
    EXPECT_EQ(parse_size("7B"), 7u);
    for (const char* bad : {"", "K", "1X", "-1", "1.5G", "1 G", "99999999999999999999T"})
        EXPECT_THROW(parse_size(bad), UsageError) << bad;
}

TEST(FormatSize, Readable) {
    EXPECT_EQ(format_size(3), "3 B");
    EXPECT_EQ(format_size(64 << 20), "64 MiB");
    EXPECT_EQ(format_size(1290), "1.26 KiB");
}
