// run_child: how hwcomm gpumem --ncu starts Nsight Compute.
#include <gtest/gtest.h>
#include <unistd.h>


#include "core/error.hpp"
#include "platform/child_process.hpp"

using namespace hwcomm;

TEST(ChildProcess, ExitCodeAndBothOutputStreamsComeBack) {
    const ChildResult r = run_child({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.output.find("out\n"), std::string::npos);
    EXPECT_NE(r.output.find("err\n"), std::string::npos);
}

TEST(ChildProcess, ASignalIsReportedAs128PlusItsNumber) {
    EXPECT_EQ(run_child({"sh", "-c", "kill -TERM $$"}).exit_code, 128 + 15);
}

TEST(ChildProcess, AMissingProgramIsAMeasurementError) {
    EXPECT_THROW(run_child({"/no/such/program"}), MeasurementError);
    EXPECT_EQ(find_in_path("no-such-program-hwcomm"), "");
    EXPECT_NE(find_in_path("sh"), "");
}

TEST(ChildProcess, ATempFileIsGoneWithItsScope) {
    std::string path;
    {
        const TempFile f("hwcomm-test");
        path = f.path();
        EXPECT_EQ(::access(path.c_str(), F_OK), 0);
    }
    EXPECT_NE(::access(path.c_str(), F_OK), 0);
}
