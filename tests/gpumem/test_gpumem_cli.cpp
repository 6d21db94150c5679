// hwcomm gpumem is `hwcomm run --filter method=gpumem-*`: its bad input is run's
// (one line, exit 2, no file), and on a machine without a CUDA GPU it measures nothing.
#include <gtest/gtest.h>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

TEST(CliGpumem, NcuIsAFlagWithoutAValue) {
    Scratch s("gpumem-ncu");
    const Result r = run_hwcomm(s, "gpumem --ncu=yes -o r.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--ncu takes no value"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_FALSE(fs::exists(s / "r.json"));
}

TEST(CliGpumem, RunsOptionsArePassedOnAndCheckedThere) {
    Scratch s("gpumem-bad");
    const Result bad = run_hwcomm(s, "gpumem --no-such-option -o r.json");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--no-such-option"), std::string::npos) << bad.err;
    const Result noise = run_hwcomm(s, "gpumem --max-noise 7 -o r.json");
    EXPECT_EQ(noise.code, 2);
    // Values are checked by run itself, which a build without CUDA never reaches.
    const bool cuda_build = run_hwcomm(s, "--version").out.find("CUDA:       yes") != std::string::npos;
    const char* expected = cuda_build ? "--max-noise" : "this build has no CUDA methods";
    EXPECT_NE(noise.err.find(expected), std::string::npos) << noise.err;
    EXPECT_FALSE(fs::exists(s / "r.json"));
}

TEST(CliGpumem, WithoutACudaGpuThereIsNothingToMeasureAndNoFile) {
    Scratch s("gpumem-none");
    const Result r = run_hwcomm(s, "gpumem --quick -o r.json");
    if (r.code == 0 || r.code == 3) GTEST_SKIP() << "this machine has a CUDA GPU";
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.err.find("nothing to measure") != std::string::npos ||
                r.err.find("this build has no CUDA methods") != std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(s / "r.json"));
}

TEST(CliGpumem, HelpNamesItsPartsAndTheOptionsItTakes) {
    // It declares no options of its own (it passes them to run): its help says what they are (issue 25).
    Scratch s("gpumem-help");
    const Result r = run_hwcomm(s, "gpumem --help");
    EXPECT_EQ(r.code, 0);
    for (const char* part : {"gpumem-timeline", "gpumem-occupancy", "gpumem-stride", "gpumem-latency", "--ncu",
                             "hwcomm run --help", "-o FILE"})
        EXPECT_NE(r.out.find(part), std::string::npos) << part;
}
