// A method's Size option takes the sizes the command line takes: K/M/G binary.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "methods/method_options.hpp"

using namespace hwcomm;

TEST(MethodOptionSizes, AcceptBinaryUnitsAndRefuseTheRest) {
    const OptionSpec spec{"block", OptionType::Size, "4K", "block size", {}};
    for (const char* good : {"4096", "4K", "4kib", "64MiB", "1G"}) EXPECT_EQ(check_option_value(spec, good), "") << good;
    for (const char* bad : {"", "1X", "-1", "1e3", "18446744073709551616"}) {
        const std::string why = check_option_value(spec, bad);
        EXPECT_EQ(why.rfind("--block ", 0), 0u) << bad << ": " << why;
    }
    OptionValues values;
    values.set("block", "64M");
    EXPECT_EQ(values.size_or("block", 1), std::uint64_t{64} << 20);
    EXPECT_EQ(values.size_or("other", 7), 7u);
    values.set("block", "1e3");
    EXPECT_THROW(values.size_or("block", 1), UsageError);
}
