// Host-side arithmetic of the CUDA methods: verification pattern, buffer
// sizing, repetition planning, duplex skews, error messages.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

#include "methods/cuda/common/cuda_error_text.hpp"
#include "methods/cuda/common/pattern.hpp"
#include "methods/cuda/common/sizing.hpp"
#include "methods/cuda/lanes/lane_window.hpp"

using namespace hwcomm::cuda;

TEST(Pattern, FillThenCheckPassesForOddSizesAndBytesMatchPatternByte) {
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{4097}}) {
        std::vector<std::byte> buf(n);
        const std::uint64_t seed = seed_for_size(n, 1);
        fill_pattern_host(buf.data(), n, seed, false);
        EXPECT_EQ(check_pattern_host(buf.data(), n, seed).mismatches, 0u) << n;
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(static_cast<std::uint8_t>(buf[i]), pattern_byte(i, seed)) << "n=" << n << " i=" << i;
    }
}

TEST(Pattern, TheWideFillWritesTheScalarPatternAtAnyAlignmentAndLength) {
    // 8 words at a time where the CPU has AVX-512DQ (most hosts here), the rest
    // word by word: every byte must be pattern_byte's, from any start address.
    std::vector<std::byte> store(70000);
    for (std::size_t offset : {std::size_t{0}, std::size_t{3}, std::size_t{8}})
        for (std::size_t n : {std::size_t{64}, std::size_t{65}, std::size_t{127}, std::size_t{65531}})
            for (bool invert : {false, true}) {
                std::byte* buf = store.data() + offset;
                const std::uint64_t seed = seed_for_size(n, offset);
                fill_pattern_host(buf, n, seed, invert);
                const std::uint8_t flip = invert ? 0xFF : 0x00;
                for (std::size_t i = 0; i < n; ++i)
                    ASSERT_EQ(static_cast<std::uint8_t>(buf[i]), static_cast<std::uint8_t>(pattern_byte(i, seed) ^ flip))
                        << "offset " << offset << " n " << n << " invert " << invert << " byte " << i;
            }
}

TEST(Pattern, InvertedFillFailsEveryByteAndACorruptByteIsLocated) {
    const std::size_t n = 1000;
    std::vector<std::byte> buf(n);
    const std::uint64_t seed = seed_for_size(n, 3);
    fill_pattern_host(buf.data(), n, seed, true);
    const PatternCheck all = check_pattern_host(buf.data(), n, seed);
    EXPECT_EQ(all.mismatches, n);
    EXPECT_EQ(all.first_mismatch, 0u);

    fill_pattern_host(buf.data(), n, seed, false);
    buf[997] ^= std::byte{0x01};
    buf[513] ^= std::byte{0x80};
    const PatternCheck two = check_pattern_host(buf.data(), n, seed);
    EXPECT_EQ(two.mismatches, 2u);
    EXPECT_EQ(two.first_mismatch, 513u);
}

TEST(Pattern, TheWideCheckCountsWhatAByteByByteComparisonCounts) {
    // 8 words at a time where the CPU has AVX-512DQ, on several threads from 4
    // MiB on: corruptions in the first and last block, inside a block, in the
    // words after the last whole block and in the trailing bytes, at any start
    // address, must give the count and first byte a plain comparison gives.
    const std::size_t big = (std::size_t{4} << 20) + 77;
    std::vector<std::byte> store(big + 16);
    for (std::size_t offset : {std::size_t{0}, std::size_t{5}})
        for (std::size_t n : {std::size_t{63}, std::size_t{64}, std::size_t{1000}, big}) {
            std::byte* buf = store.data() + offset;
            const std::uint64_t seed = seed_for_size(n, offset + 11);
            fill_pattern_host(buf, n, seed, false);
            EXPECT_EQ(check_pattern_host(buf, n, seed).mismatches, 0u) << n;
            std::set<std::size_t> planted;
            for (std::size_t at : {n - 1, n / 2 + 3, std::size_t{9}, n - 9, n - 70, n / 3, n - 2})
                if (at < n) planted.insert(at);
            for (std::size_t at : planted) buf[at] ^= std::byte{0x40};
            const PatternCheck got = check_pattern_host(buf, n, seed);
            EXPECT_EQ(got.mismatches, planted.size()) << "offset " << offset << " n " << n;
            EXPECT_EQ(got.first_mismatch, *planted.begin()) << "offset " << offset << " n " << n;
        }
}

TEST(Pattern, StaleDataOfAnotherSizeOrFillDoesNotPass) {
    const std::size_t n = 4096;
    std::vector<std::byte> buf(n);
    fill_pattern_host(buf.data(), n, seed_for_size(2048, 1), false);  // previous size
    EXPECT_GT(check_pattern_host(buf.data(), n, seed_for_size(n, 2)).mismatches, n * 9 / 10);
    // Seeds differ for every size and every fill of the same size.
    std::set<std::uint64_t> seeds;
    for (std::size_t s = 1; s <= (1u << 30); s *= 2)
        for (std::uint64_t salt = 0; salt < 4; ++salt) seeds.insert(seed_for_size(s, salt));
    EXPECT_EQ(seeds.size(), 31u * 4u);
}

TEST(Sizing, AskedSizeWhenEverythingFits) {
    SizeCapInputs in;
    in.asked = 1ull << 30;
    in.devices = {{0, 140ull << 30, 143ull << 30, 1}};
    in.host_available = 200ull << 30;
    in.host_buffers = 1;
    const SizeCap cap = cap_buffer_bytes(in);
    EXPECT_EQ(cap.buffer_bytes, 1ull << 30);
    EXPECT_EQ(cap.max_bytes, 1ull << 30);
    EXPECT_EQ(cap.limited_by, "asked");
}

TEST(Sizing, CappedByDeviceFreeMemoryShareAndByHostMemory) {
    SizeCapInputs in;
    in.asked = 8ull << 30;
    in.devices = {{0, 10ull << 30, 80ull << 30, 2}, {1, 4ull << 30, 80ull << 30, 2}};
    const SizeCap dev = cap_buffer_bytes(in);
    // gpu1: 4 GiB free x 0.9 / 2 buffers, rounded down to 4 KiB.
    const std::size_t expect = static_cast<std::size_t>((4ull << 30) * kDeviceFreeShare / 2) & ~std::size_t{4095};
    EXPECT_EQ(dev.buffer_bytes, expect);
    EXPECT_EQ(dev.max_bytes, expect);
    EXPECT_EQ(dev.limited_by, "gpu1 free memory");

    in.host_available = 6ull << 30;
    in.host_buffers = 2;
    const SizeCap host = cap_buffer_bytes(in);
    EXPECT_EQ(host.max_bytes, (6ull << 30) / 4);  // 50% of available over 2 buffers
    EXPECT_EQ(host.host_bytes, host.max_bytes);
    EXPECT_EQ(host.buffer_bytes, host.max_bytes);  // no pool: device buffers as large as the largest copy
    EXPECT_EQ(host.limited_by, "host memory");
}

TEST(Sizing, PoolHalfGpuMemoryAllocatesHalfButMovesAtMostAsked) {
    SizeCapInputs in;
    in.asked = 1ull << 30;
    in.pool_half_gpu_memory = true;
    in.devices = {{0, 140ull << 30, 144ull << 30, 1}};
    in.host_available = 200ull << 30;
    in.host_buffers = 1;
    const SizeCap cap = cap_buffer_bytes(in);
    EXPECT_EQ(cap.buffer_bytes, 72ull << 30);
    EXPECT_EQ(cap.host_bytes, 1ull << 30);  // the host side never needs the pool
    EXPECT_EQ(cap.max_bytes, 1ull << 30);
    EXPECT_EQ(cap.limited_by, "pool: half of gpu0 memory");
    in.asked = 100ull << 30;  // asking more than the pool: the pool wins
    EXPECT_EQ(cap_buffer_bytes(in).max_bytes, 72ull << 30);
    in.devices[0].buffers = 2;  // same-GPU copy: two half-memory pools cannot fit
    EXPECT_EQ(cap_buffer_bytes(in).limited_by, "gpu0 free memory");
}

TEST(Sizing, NothingFitsGivesZero) {
    SizeCapInputs in;
    in.asked = 1 << 20;
    in.devices = {{0, 0, 80ull << 30, 1}};
    EXPECT_EQ(cap_buffer_bytes(in).max_bytes, 0u);
}

TEST(Repetitions, SmallCopiesAreBatchedToFiftyMicrosecondsAndCapped) {
    EXPECT_EQ(plan_repetitions(1e-3), 1u);     // large copy
    EXPECT_EQ(plan_repetitions(200e-6), 1u);   // exactly the target
    EXPECT_EQ(plan_repetitions(40e-6), 5u);
    EXPECT_EQ(plan_repetitions(2e-6), 100u);   // ~peer latency: 100 copies, as p2pBandwidthLatencyTest
    EXPECT_EQ(plan_repetitions(3e-6), 67u);    // ceil(66.67)
    EXPECT_EQ(plan_repetitions(16e-6), 13u);   // ~staged latency: ceil(12.5)
    EXPECT_EQ(plan_repetitions(0.2e-6), kMaxRepetitions);
    EXPECT_EQ(plan_repetitions(0.0), kMaxRepetitions);  // no estimate yet
    EXPECT_EQ(plan_repetitions(1e-6, 50e-6, 32), 32u);
    EXPECT_EQ(plan_repetitions(1e-6, 50e-6, 0), 1u);
}

TEST(LaneWindow, SameGpuLanesCompareDirectly) {
    // Lane 0 runs 0..1.0 ms, lane 1 runs 0.01..1.05 ms.
    const LaneWindow w = combine_lanes({{1.0e-3, 0.0, 1.0e-3}, {1.04e-3, 0.01e-3, 1.05e-3}});
    EXPECT_NEAR(w.window_s, 1.05e-3, 1e-12);
    EXPECT_NEAR(w.lanes[1].start_s - w.lanes[0].start_s, 0.01e-3, 1e-12);
    EXPECT_NEAR(w.lanes[1].stop_s - w.lanes[0].stop_s, 0.05e-3, 1e-12);
}

TEST(LaneWindow, ALaneStartingFirstExtendsTheWindowBackwards) {
    const LaneWindow w = combine_lanes({{1.0e-3, 0.0, 1.0e-3}, {0.9e-3, -0.02e-3, 0.88e-3}});
    EXPECT_NEAR(w.window_s, 1.02e-3, 1e-12);  // from lane 1's start to lane 0's stop
    EXPECT_NEAR(w.max_start_skew_s, 0.02e-3, 1e-12);
    EXPECT_NEAR(w.max_stop_skew_s, 0.12e-3, 1e-12);
}

TEST(LaneWindow, OtherGpusDeriveTheStartFromObservedStopAndDuration) {
    // Lane 1's stop is seen at 1.2 ms on lane 0's clock; it ran 1.0 ms: it started at 0.2 ms.
    const LaneWindow w = combine_lanes({{1.1e-3, 0.0, 1.1e-3}, {1.0e-3, std::nullopt, 1.2e-3}});
    EXPECT_NEAR(w.lanes[1].start_s, 0.2e-3, 1e-12);
    EXPECT_NEAR(w.lanes[1].stop_s - w.lanes[0].stop_s, 0.1e-3, 1e-12);
    EXPECT_NEAR(w.window_s, 1.2e-3, 1e-12);
    // Bytes of both lanes over the window: 2 x 512 MiB in 1.2 ms.
    const double gbps = 2.0 * (512ull << 20) / w.window_s / 1e9;
    EXPECT_NEAR(gbps, 894.8, 0.1);
}

TEST(LaneWindow, FourLanesOnFourGpusSpanEarliestStartToLatestStop) {
    const LaneWindow w = combine_lanes(
        {{2.0e-3, 0.0, 2.0e-3}, {2.1e-3, std::nullopt, 2.2e-3}, {1.9e-3, std::nullopt, 2.0e-3},
         {2.3e-3, std::nullopt, 2.25e-3}});
    ASSERT_EQ(w.lanes.size(), 4u);
    EXPECT_NEAR(w.lanes[3].start_s, -0.05e-3, 1e-12);
    EXPECT_NEAR(w.window_s, 2.3e-3, 1e-12);  // -0.05 .. 2.25 ms
    EXPECT_NEAR(w.max_stop_skew_s, 0.25e-3, 1e-12);
}

TEST(CudaErrorText, MessageNamesCallPlaceAndErrorAndFlagsStickyErrors) {
    const std::string m = describe_cuda_failure(1, "cudaErrorInvalidValue", "invalid argument",
                                                "cudaMemcpyAsync(a, b, n, k, s)", "/x/y/one_way_session.cpp", 42);
    EXPECT_EQ(m, "cudaMemcpyAsync(a, b, n, k, s) failed at one_way_session.cpp:42: cudaErrorInvalidValue "
                 "(invalid argument)");
    EXPECT_FALSE(is_sticky_cuda_error(1));
    EXPECT_FALSE(is_sticky_cuda_error(704));  // peer access already enabled
    EXPECT_TRUE(is_sticky_cuda_error(700));   // illegal address
    EXPECT_TRUE(is_sticky_cuda_error(719));   // launch failure
    const std::string sticky =
        describe_cuda_failure(700, "cudaErrorIllegalAddress", "an illegal memory access", "k()", "a.cu", 1);
    EXPECT_NE(sticky.find("sticky error"), std::string::npos);
}
