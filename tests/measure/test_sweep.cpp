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
    EXPECT_EQ(parse_size("3gib"), std::uint64_t{3} << 30);
    EXPECT_EQ(parse_size("5t"), std::uint64_t{5} << 40);
    EXPECT_EQ(parse_size("18446744073709551615"), ~std::uint64_t{0});
    EXPECT_EQ(parse_size("16777215T"), std::uint64_t{16777215} << 40);
    for (const char* bad : {"", "K", "1X", "-1", "+1", " 1", "1e3", "0x10", "1.5G", "1 G", "1KK", "1Gi", "1iB",
                            "18446744073709551616", "99999999999999999999T", "16777216T", "17179869184G"})
        EXPECT_THROW(parse_size(bad), UsageError) << bad;
}

TEST(ParseSize, MessagesNameTheTextAndSayUnitsAreBinary) {
    try {
        parse_size("1e3");
        FAIL();
    } catch (const UsageError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("'1e3'"), std::string::npos) << m;
        EXPECT_NE(m.find("binary"), std::string::npos) << m;
    }
    try {
        parse_size("16777216T");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("too large"), std::string::npos) << e.what();
    }
}

TEST(FormatSize, Readable) {
    EXPECT_EQ(format_size(3), "3 B");
    EXPECT_EQ(format_size(64 << 20), "64 MiB");
    EXPECT_EQ(format_size(1290), "1.26 KiB");
    EXPECT_EQ(format_size(1024), "1 KiB");
    EXPECT_EQ(format_size(1536), "1.5 KiB");
    EXPECT_EQ(format_size(std::uint64_t{1} << 30), "1 GiB");
    EXPECT_EQ(format_size(std::uint64_t{16'658'051'072}), "15.5 GiB");
    EXPECT_EQ(format_size((std::uint64_t{1} << 20) - 512), "1024 KiB");  // 1023.5: no exponent notation
    EXPECT_EQ(format_size(~std::uint64_t{0}), "16 EiB");
}
