// The pointer chase's visiting order: a bijection of [0, n) for every n (the
// chase's one-cycle check depends on it), fixed by its seed, and as scattered
// as a shuffle (neighbouring positions on unrelated lines).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/cycle_order.hpp"

using namespace hwcomm;

TEST(CycleOrder, VisitsEveryPositionOnceForAnySize) {
    for (std::uint64_t n : {1ull, 2ull, 3ull, 4ull, 5ull, 63ull, 64ull, 65ull, 1000ull, 4097ull, 65536ull, 100003ull}) {
        const CycleOrder order(n, 7);
        std::vector<bool> seen(n, false);
        for (std::uint64_t k = 0; k < n; ++k) {
            const std::uint64_t line = order(k);
            ASSERT_LT(line, n) << "n=" << n << " k=" << k;
            ASSERT_FALSE(seen[line]) << "n=" << n << ": line " << line << " twice";
            seen[line] = true;
        }
    }
    EXPECT_THROW(CycleOrder(0, 1), MeasurementError);
}

TEST(CycleOrder, TheSeedPicksThePermutationAndNeighboursScatter) {
    constexpr std::uint64_t n = 1 << 20;
    const CycleOrder a(n, 1), again(n, 1), b(n, 2);
    std::uint64_t same_as_other_seed = 0, near_neighbour = 0, identity = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
        ASSERT_EQ(a(k), again(k));
        same_as_other_seed += a(k) == b(k);
        identity += a(k) == k;
        const std::uint64_t here = a(k), next = a((k + 1) % n);
        // A stride prefetcher follows steps of a few lines: a random order
        // takes such a step about 2*8/n of the time.
        near_neighbour += (here > next ? here - next : next - here) <= 8;
    }
    // A uniform random permutation agrees with another, and with the
    // identity, in about one position; allow a few.
    EXPECT_LT(same_as_other_seed, 16u);
    EXPECT_LT(identity, 16u);
    EXPECT_LT(near_neighbour, 64u);
}
