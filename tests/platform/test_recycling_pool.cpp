// The pool that keeps costly buffers between records (platform/recycling_pool.hpp):
// exact key and size, most recent first, bounded, nothing larger than the cap.
#include <gtest/gtest.h>

#include <string>

#include "platform/recycling_pool.hpp"

using namespace hwcomm;

namespace {

struct Thing {
    int id;
};

using Pool = RecyclingPool<std::string, Thing>;

std::unique_ptr<Thing> thing(int id) { return std::make_unique<Thing>(Thing{id}); }

}  // namespace

TEST(RecyclingPool, GivesBackOnlyTheSameKeyAndSizeMostRecentFirst) {
    Pool pool(100);
    EXPECT_EQ(pool.take("pinned@0", 10).thing, nullptr);
    EXPECT_TRUE(pool.give("pinned@0", 10, thing(1)).empty());
    EXPECT_TRUE(pool.give("pinned@0", 10, thing(2)).empty());
    EXPECT_TRUE(pool.give("wc@0", 10, thing(3)).empty());
    EXPECT_EQ(pool.take("pinned@0", 20).thing, nullptr) << "never a smaller one than asked for";
    EXPECT_EQ(pool.take("pinned@1", 10).thing, nullptr);
    EXPECT_EQ(pool.take("pinned@0", 5).thing, nullptr) << "a larger one only when allowed";
    const auto first = pool.take("pinned@0", 10);
    ASSERT_NE(first.thing, nullptr);
    EXPECT_EQ(first.thing->id, 2);
    EXPECT_EQ(first.bytes, 10u);
    EXPECT_EQ(pool.take("pinned@0", 10).thing->id, 1);
    EXPECT_EQ(pool.take("pinned@0", 10).thing, nullptr);
    EXPECT_EQ(pool.reused(), 2u);
    EXPECT_EQ(pool.idle_count(), 1u);
    EXPECT_EQ(pool.idle_bytes(), 10u);
}

TEST(RecyclingPool, KeepsAtMostItsCapDroppingTheOldestAndNothingLargerThanIt) {
    Pool pool(25);
    EXPECT_TRUE(pool.give("a", 10, thing(1)).empty());
    EXPECT_TRUE(pool.give("b", 10, thing(2)).empty());
    auto evicted = pool.give("c", 10, thing(3));
    ASSERT_EQ(evicted.size(), 1u);
    EXPECT_EQ(evicted.front()->id, 1) << "the least recently released goes first";
    EXPECT_EQ(pool.idle_bytes(), 20u);
    auto too_large = pool.give("d", 26, thing(4));
    ASSERT_EQ(too_large.size(), 1u);
    EXPECT_EQ(too_large.front()->id, 4);
    EXPECT_EQ(pool.idle_bytes(), 20u);
    EXPECT_EQ(pool.drain().size(), 2u);
    EXPECT_EQ(pool.idle_bytes(), 0u);
    EXPECT_EQ(pool.take("b", 10).thing, nullptr);
}

TEST(RecyclingPool, ALargerOneServesASmallerRequestExactFirstThenTheSmallestWithinTheFactor) {
    Pool pool(1000);
    EXPECT_TRUE(pool.give("a", 64, thing(1)).empty());
    EXPECT_TRUE(pool.give("a", 32, thing(2)).empty());
    EXPECT_TRUE(pool.give("a", 16, thing(3)).empty());
    EXPECT_TRUE(pool.give("a", 10, thing(4)).empty());
    EXPECT_EQ(pool.take("a", 4, 2).thing, nullptr) << "10 and larger are over twice 4";
    const auto exact = pool.take("a", 10, 4);
    EXPECT_EQ(exact.thing->id, 4) << "an exact size first";
    const auto larger = pool.take("a", 9, 4);
    EXPECT_EQ(larger.thing->id, 3) << "else the smallest that serves";
    EXPECT_EQ(larger.bytes, 16u);
    EXPECT_EQ(pool.idle_bytes(), 96u);
}

TEST(RecyclingPool, AZeroCapKeepsNothing) {
    Pool pool(0);
    EXPECT_EQ(pool.give("a", 1, thing(1)).size(), 1u);
    EXPECT_EQ(pool.idle_count(), 0u);
    EXPECT_TRUE(pool.give("a", 0, thing(2)).empty()) << "an empty buffer costs nothing to keep";
}
