// What a careless script does to hwcomm ends with exit 2 and one line
// (issue 16), checked on the real binary.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

std::string fixture(const std::string& relative) { return std::string(HWCOMM_FIXTURES) + "/" + relative; }

void expect_usage_error(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
}

// A resumable results file of this host whose meta.options[key] is `value`.
void write_resume_file(const Scratch& s, const std::string& key, const std::string& value) {
    const Result made = run_hwcomm(s, "run --filter method=cpu-read --min-size 4K --max-size 8K --time-budget 0.001 -o r.json --force");
    ASSERT_EQ(made.code, 0) << made.err;
    auto doc = read_json(s / "r.json");
    if (key == "meta") doc["meta"] = nlohmann::json::parse(value);
    else doc["meta"]["options"][key] = nlohmann::json::parse(value);
    std::ofstream(s / "r.json") << doc.dump();
}

}  // namespace

TEST(CliHostile, CrashingTopologyExportIsExit2) {
    Scratch s("hostile-topo");
    // hwloc's own XML parser crashes on it; the guard asks for that parser even
    // where libhwloc-plugins would hand XML to libxml2.
    expect_usage_error(run_hwcomm(s, "topo --input '" + fixture("fuzz/hwloc-segv-pu-attribute-flip.xml") + "'"),
                       "malformed hwloc XML export");
    expect_usage_error(run_hwcomm(s, "list --input '" + fixture("fuzz/hwloc-banner-out-of-order.xml") + "'"),
                       "not an hwloc XML export");
}

TEST(CliHostile, DeeplyNestedResultsFileIsExit2) {
    Scratch s("hostile-deep");
    std::ofstream(s / "deep.json") << std::string(300000, '[') << std::string(300000, ']');
    expect_usage_error(run_hwcomm(s, "summary deep.json"), "nests JSON deeper than 128 levels");
    expect_usage_error(run_hwcomm(s, "export --csv deep.json"), "nests JSON deeper than 128 levels");
    expect_usage_error(run_hwcomm(s, "run --resume deep.json"), "nests JSON deeper than 128 levels");
}

TEST(CliHostile, ResumedOptionsOutsideTheLimitsAreExit2) {
    Scratch s("hostile-resume");
    const std::pair<const char*, const char*> cases[] = {
        {"warmup_runs", "-1"}, {"timing", "\"bogus\""}, {"sizes", "[0]"}, {"min_size", "-1"}};
    for (const auto& [key, value] : cases) {
        write_resume_file(s, key, value);
        const std::string before = slurp(s / "r.json");
        const Result r = run_hwcomm(s, "run --resume r.json");
        expect_usage_error(r, "meta.options is malformed: ");
        EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
        EXPECT_EQ(slurp(s / "r.json"), before);
    }
    for (const char* meta : {"[]", "null", "{\"host\": 3}"}) {
        write_resume_file(s, "meta", meta);
        expect_usage_error(run_hwcomm(s, "run --resume r.json"), "--resume");
    }
}

TEST(CliHostile, BadOutputPathsAreExit2) {
    Scratch s("hostile-out");
    std::filesystem::create_directories(s / "dir");
    expect_usage_error(run_hwcomm(s, "run --quick -o dir --force"), "is a directory");
    expect_usage_error(run_hwcomm(s, "run --quick -o ''"), "empty value");
    expect_usage_error(run_hwcomm(s, "run --quick -o " + std::string(5000, 'a')), "cannot write");
    expect_usage_error(run_hwcomm(s, "run --quick -o /dev/null"), "not a regular file");
    expect_usage_error(run_hwcomm(s, "run --quick -o nowhere/r.json"), "cannot write");
    expect_usage_error(run_hwcomm(s, "export --csv r.json -o dir"), "dir");
}

TEST(CliHostile, EmptyAndNanValuesAreExit2) {
    Scratch s("hostile-values");
    expect_usage_error(run_hwcomm(s, "run --min-size '' -o r.json"), "empty value");
    expect_usage_error(run_hwcomm(s, "run --timing '' -o r.json"), "empty value");
    expect_usage_error(run_hwcomm(s, "run --time-budget nan -o r.json"), "--time-budget");
    expect_usage_error(run_hwcomm(s, "run --time-budget inf -o r.json"), "--time-budget");
    expect_usage_error(run_hwcomm(s, "run --min-size 0 -o r.json"), "--min-size");
    EXPECT_FALSE(std::filesystem::exists(s / "r.json"));
}

TEST(CliHostile, OutputWithResumeIsExit2) {
    Scratch s("hostile-o-resume");
    write_resume_file(s, "timing", "\"wall\"");
    expect_usage_error(run_hwcomm(s, "run --resume r.json -o other.json"), "drop -o");
    EXPECT_FALSE(std::filesystem::exists(s / "other.json"));
}

TEST(CliHostile, TopologyToDevNullLeavesTheDevice) {
    Scratch s("hostile-devnull");
    const Result r = run_hwcomm(s, "topo --input '" + fixture("hwloc/24em64t-2n6c2t-pci.xml") + "' --json -o /dev/null");
    EXPECT_EQ(r.code, 0) << r.err;
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(CliHostile, TopologyOutputIsReplacedOnlyWithForce) {
    Scratch s("hostile-topo-force");
    const std::string xml = fixture("hwloc/24em64t-2n6c2t-pci.xml");
    std::ofstream(s / "t.json") << "mine";
    expect_usage_error(run_hwcomm(s, "topo --input '" + xml + "' --json -o t.json"), "t.json exists; use --force");
    EXPECT_EQ(slurp(s / "t.json"), "mine");
    EXPECT_EQ(run_hwcomm(s, "topo --input '" + xml + "' --json -o t.json --force").code, 0);
    EXPECT_EQ(read_json(s / "t.json").at("schema"), "hwcomm-topology");
}
