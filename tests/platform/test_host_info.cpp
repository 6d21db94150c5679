#include <gtest/gtest.h>
#include <sys/prctl.h>

#include <regex>

#include "platform/clock.hpp"
#include "platform/host_info.hpp"

using namespace hwcomm;

TEST(HostInfo, HasTheFactsTheResultsFileNeeds) {
    const HostInfo h = read_host_info();
    EXPECT_FALSE(h.hostname.empty());
    EXPECT_FALSE(h.kernel.empty());
    EXPECT_FALSE(h.cpu_model.empty());
    EXPECT_TRUE(std::regex_match(h.date_utc, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << h.date_utc;
}

TEST(HostInfo, CommandLineAndMemory) {
    const auto args = process_command_line();
    ASSERT_FALSE(args.empty());
    EXPECT_NE(args.front().find("test_platform"), std::string::npos);
    EXPECT_GT(available_memory_bytes(), std::uint64_t{1} << 20);
}

TEST(HostInfo, ParsesMemAvailableInKilobytes) {
    const std::string text =
        "MemTotal:       263855712 kB\nMemFree:        261000000 kB\nMemAvailable:   262144000 kB\n";
    EXPECT_EQ(parse_mem_available(text), 262144000ull * 1024);
    EXPECT_EQ(parse_mem_available("MemTotal: 1 kB\n"), 0u);
    EXPECT_EQ(parse_mem_available("MemAvailable: x kB\n"), 0u);
}

TEST(Clock, IsMonotonicWithSubMicrosecondResolution) {
    const double a = steady_seconds();
    const double b = steady_seconds();
    EXPECT_LE(a, b);
    EXPECT_GT(steady_clock_resolution(), 0.0);
    EXPECT_LT(steady_clock_resolution(), 1e-6);
}

TEST(HostInfo, RunningProcessesNameWhatTheLoadAverageComesFrom) {
    EXPECT_EQ(running_command_of_stat("1234 (cc1plus) R 1200 1234 1200 0 -1"), "cc1plus");
    EXPECT_EQ(running_command_of_stat("1234 (ninja) S 1200 1234 1200 0 -1"), "");  // sleeping
    EXPECT_EQ(running_command_of_stat("77 (a) b) R 1 77"), "a) b");                // ") " inside the name
    EXPECT_EQ(running_command_of_stat("garbage"), "");
    // This process runs, but is never counted as "other". Under a name no other process has:
    // ctest -j runs other tests of this same binary beside it, and those are others.
    char before[17] = {};
    ::prctl(PR_GET_NAME, before);
    ::prctl(PR_SET_NAME, "hwcomm-self-chk");
    const std::vector<std::string> others = other_running_commands();
    ::prctl(PR_SET_NAME, before);
    for (const std::string& c : others) EXPECT_NE(c, "hwcomm-self-chk");
}
