// hwcomm run --under-load on a machine without a GPU: every bad SPEC is one
// line on stderr, exit 2, and no results file.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

TEST(CliUnderLoad, BadSpecsExitTwoWithOneLineAndWriteNothing) {
    Scratch s("under-load");
    for (const std::string spec : {"'frob numa0->gpu0'", "'memcpy-h2d numa0'", "''", "'memcpy-h2d numa0->gpu99'",
                                   "'all-to-one'"}) {
        const Result r = run_hwcomm(s, "run --quick --filter method=cpu-read --under-load " + spec + " -o out.json");
        EXPECT_EQ(r.code, 2) << spec << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(s / "out.json")) << spec;
    }
}
