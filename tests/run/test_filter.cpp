#include <gtest/gtest.h>

#include "core/error.hpp"
#include "fake_method.hpp"
#include "run/filter.hpp"
#include "run/plan.hpp"

using namespace hwcomm;

namespace {

struct Fixture {
    Registry reg;
    Graph g = test::three_nodes();
    Fixture() {
        reg.add(std::make_unique<test::FakeMethod>("cpu-read"));
        reg.add(std::make_unique<test::FakeMethod>("cpu-write"));
    }
};

}  // namespace

TEST(Filters, ExactNamesAndGlobs) {
    Fixture f;
    const Filters exact({"method=cpu-read", "src=numa0"}, f.reg, f.g);
    EXPECT_TRUE(exact.accepts("cpu-read", "numa0", "numa2"));
    EXPECT_FALSE(exact.accepts("cpu-write", "numa0", "numa2"));
    EXPECT_FALSE(exact.accepts("cpu-read", "numa1", "numa2"));
    const Filters glob({"method=cpu-*", "dst=numa[12]"}, f.reg, f.g);
    EXPECT_TRUE(glob.accepts("cpu-write", "numa0", "numa1"));
    EXPECT_FALSE(glob.accepts("cpu-write", "numa0", "numa0"));
    // Same key twice: either.
    const Filters either({"src=numa0", "src=numa2"}, f.reg, f.g);
    EXPECT_TRUE(either.accepts("x", "numa2", "numa0"));
    EXPECT_FALSE(either.accepts("x", "numa1", "numa0"));
    // Applied to a plan: 6 up-pairs x 2 params x 2 methods = 24; cpu-read from numa0: 3 pairs x 2 params.
    EXPECT_EQ(build_plan(f.g, f.reg, Filters{}, {}).size(), 24u);
    EXPECT_EQ(build_plan(f.g, f.reg, exact, {}).size(), 6u);
}

TEST(Filters, UnknownNamesAreUsageErrors) {
    Fixture f;
    EXPECT_THROW(Filters({"method=cpu-raed"}, f.reg, f.g), UsageError);
    EXPECT_THROW(Filters({"src=numa7"}, f.reg, f.g), UsageError);
    EXPECT_THROW(Filters({"dst=gpu*"}, f.reg, f.g), UsageError);
    EXPECT_THROW(Filters({"size=4K"}, f.reg, f.g), UsageError);
    EXPECT_THROW(Filters({"cpu-read"}, f.reg, f.g), UsageError);
    EXPECT_THROW(Filters({"method="}, f.reg, f.g), UsageError);
    try {
        Filters({"src=numa7"}, f.reg, f.g);
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("known: numa0, numa1, numa2"), std::string::npos) << e.what();
    }
}
