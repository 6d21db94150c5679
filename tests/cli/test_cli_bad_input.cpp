// Bad input: one line on stderr, exit code 2, no file created or changed.
#include <gtest/gtest.h>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

void expect_usage_error(const Result& r, const std::string& mentions) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
}

}  // namespace

TEST(CliBadInput, RunRefusesAndTouchesNothing) {
    Scratch s("bad");
    std::ofstream(s / "existing.json") << "precious";
    expect_usage_error(run_hwcomm(s, "run --quick -o existing.json"), "--force");
    expect_usage_error(run_hwcomm(s, "run --min-size 1M --max-size 1K -o a.json"), "--min-size");
    expect_usage_error(run_hwcomm(s, "run --max-size 12Q -o a.json"), "12Q");
    expect_usage_error(run_hwcomm(s, "run --filter method=cpu-raed -o a.json"), "cpu-raed");
    expect_usage_error(run_hwcomm(s, "run --filter src=numa9 -o a.json"), "numa9");
    expect_usage_error(run_hwcomm(s, "run --filter colour=red -o a.json"), "colour");
    expect_usage_error(run_hwcomm(s, "run --max-noise lots -o a.json"), "--max-noise");
    for (const char* n : {"-1", "ten", "99999999999"})
        expect_usage_error(run_hwcomm(s, std::string("run --noise-limit ") + n + " -o a.json"), "--noise-limit");
    expect_usage_error(run_hwcomm(s, "run -o no/such/dir/a.json"), "no/such/dir/a.json");
    expect_usage_error(run_hwcomm(s, "run --input " HWCOMM_FIXTURES "/hwloc/24em64t-2n6c2t-pci.xml -o a.json"), "--input");
    EXPECT_EQ(slurp(s / "existing.json"), "precious");
    EXPECT_FALSE(fs::exists(s / "a.json"));
    // Only the file we made (no temporaries left behind).
    EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), {}), 1);
}

TEST(CliBadInput, ResumeRefusesCorruptAndForeignFiles) {
    Scratch s("badresume");
    std::ofstream(s / "corrupt.json") << "{\"schema\": \"hwcomm-results\", \"schema_v";
    expect_usage_error(run_hwcomm(s, "run --resume corrupt.json"), "corrupt.json");
    EXPECT_EQ(slurp(s / "corrupt.json"), "{\"schema\": \"hwcomm-results\", \"schema_v");

    ASSERT_EQ(run_hwcomm(s, "run --quick --max-size 4K --filter method=cpu-write -o ours.json").code, 0);
    auto doc = read_json(s / "ours.json");
    doc["meta"]["fingerprint"]["cpu_model"] = "some-other-machine";  // the host name is no identity
    const std::string foreign = doc.dump();
    std::ofstream(s / "foreign.json") << foreign;
    expect_usage_error(run_hwcomm(s, "run --resume foreign.json"), "some-other-machine");
    EXPECT_EQ(slurp(s / "foreign.json"), foreign);

    expect_usage_error(run_hwcomm(s, "run --resume ours.json --quick"), "--resume");
    expect_usage_error(run_hwcomm(s, "export --csv corrupt.json"), "corrupt.json");
}
