// The insight commands end to end: summary (with --targets and --matrix),
// import + analyze --json on the study's DGX-1 data, compare on the examples.
#include <gtest/gtest.h>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

const std::string kDocs = HWCOMM_DOCS;
const std::string kFixtures = HWCOMM_FIXTURES;

}  // namespace

TEST(InsightCli, SummaryOfTheH200ExampleShowsLargeTransferAndPercentOfLink) {
    Scratch s("summary");
    const Result r = run_hwcomm(s, "summary '" + kDocs + "/examples/h200x2/results-default.json.gz'");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("178.7    644.1 @64K c"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("88% PCIe5x16"), std::string::npos);
    EXPECT_NE(r.out.find("82% NV4x18"), std::string::npos);

    // Two files: a "#" column keyed by a legend, still within 120 columns.
    const Result two = run_hwcomm(s, "summary '" + kDocs + "/examples/h200x2/results-default.json.gz' '" + kDocs +
                                         "/examples/h200x2/results-pageable-wall.json'");
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_NE(two.out.find("#2 = "), std::string::npos);
    std::istringstream lines(two.out.substr(0, two.out.find("GB/s = 1e9")));
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("#1 ", 0) == 0 || line.rfind("#2 ", 0) == 0) {
            EXPECT_LE(line.size(), 120u) << line;
        }
}

TEST(InsightCli, SummaryOfGpumemRecordsIsTheirOwnSectionNotSizeCurves) {
    Scratch s("summary-gpumem");
    const Result r = run_hwcomm(s, "summary '" + kDocs + "/examples/h200x2/gpumem.json.gz'");
    if (r.err.find("has no zlib") != std::string::npos) GTEST_SKIP() << "hwcomm built without zlib";
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("GPU memory (gpumem-*", 0), 0u) << r.out;  // no size-curve table before it
    EXPECT_NE(r.out.find("peak 3711.8 GB/s = 77%"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("best @size"), std::string::npos);
}

TEST(InsightCli, TargetsMissExitsOneAndTheLatencySignIsTheNumbers) {
    Scratch s("targets");
    const Result r = run_hwcomm(s, "summary '" + kDocs + "/examples/h200x2/results-default.json.gz' --targets '" + kDocs +
                                       "/targets-h200x2.json'");
    EXPECT_EQ(r.code, 1) << r.err;  // the peer latency 2.22 us misses ~2 us
    EXPECT_NE(r.out.find("MISSES     +10.8%"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("BEATS      -11.9%"), std::string::npos);  // staged latency below the figure
    EXPECT_EQ(r.out.find("MACHINE DIFFERS"), std::string::npos);

    const Result other = run_hwcomm(s, "summary '" + kDocs + "/examples/h200x4/results-default.json.gz' --targets '" +
                                           kDocs + "/targets-h200x2.json'");
    if (other.err.find("has no zlib") != std::string::npos) GTEST_SKIP() << "hwcomm built without zlib";
    EXPECT_EQ(other.code, 1);  // the figures are for another machine
    EXPECT_NE(other.out.find("MACHINE DIFFERS: the figures are for 2x NVIDIA H200, the results come from 4x NVIDIA "
                             "H200"),
              std::string::npos)
        << other.out;
}

TEST(InsightCli, MatrixOfPeerCopiesAndBadSpecs) {
    Scratch s("matrix");
    const std::string file = "'" + kDocs + "/examples/h200x2/results-default.json.gz'";
    Result r = run_hwcomm(s, "summary " + file + " --matrix memcpy-peer:peer=on");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("gpu0         -   394.02"), std::string::npos) << r.out;
    r = run_hwcomm(s, "summary " + file + " --matrix memcpy-h2d:host_mem=pinned --at 64M");
    EXPECT_NE(r.out.find("numa0    55.12     55.15"), std::string::npos) << r.out;
    EXPECT_EQ(run_hwcomm(s, "summary " + file + " --matrix memcpy-peer:peer").code, 2);
    EXPECT_EQ(run_hwcomm(s, "summary " + file + " --at 64M").code, 2);
}

TEST(InsightCli, ImportAndAnalyzeTheDgx1DataWithItsTopology) {
    Scratch s("dgx1");
    ASSERT_EQ(std::system(("cd '" + s.dir.string() + "' && mkdir data && cd data && '" HWCOMM_CMAKE "' -E tar xf '" +
                           kFixtures + "/commscope-dgx1/dgx1-memcpy.tar.xz'").c_str()),
              0);
    Result r = run_hwcomm(s, "import data --topology '" + kFixtures + "/hwloc/dgx1.xml' -o dgx1.json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("skipped 2 files"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("86 records"), std::string::npos);
    EXPECT_EQ(run_hwcomm(s, "import data -o dgx1.json").code, 2);  // exists: not overwritten
    r = run_hwcomm(s, "analyze dgx1.json --json -o analysis.json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = read_json(s / "analysis.json");
    EXPECT_EQ(j["schema"], "hwcomm.analyze/v1");
    std::map<std::string, nlohmann::json> verdicts;
    for (const auto& c : j["cells"]) verdicts[c["key"]] = c["verdict"];
    EXPECT_EQ(verdicts["affinity|cpu-gpu|pageable|d2h"], true);
    EXPECT_EQ(verdicts["affinity|cpu-gpu|pinned|h2d"], false);
    EXPECT_EQ(verdicts["peer_effect|gpu-gpu|remote"], "n/a");
    EXPECT_EQ(verdicts["anisotropy|gpu-gpu|peer_off|local"], "no-data");

    r = run_hwcomm(s, "import data -o bare.json");  // no topology: says what cannot be concluded
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("no --topology"), std::string::npos);
    r = run_hwcomm(s, "analyze bare.json --json");
    const auto bare = nlohmann::json::parse(r.out);
    for (const auto& c : bare["cells"]) EXPECT_EQ(c["verdict"], "no-data") << c["key"];
    EXPECT_EQ(run_hwcomm(s, "analyze dgx1.json --threshold 0").code, 2);
}

TEST(InsightCli, CompareReadsTheCompressedExampleAndExitsOneBeyondTheThreshold) {
    Scratch s("compare");
    const std::string a = "'" + kDocs + "/examples/h200x2/results-default.json.gz'";
    const std::string b = "'" + kDocs + "/examples/h200x4/results-default.json.gz'";
    Result r = run_hwcomm(s, "compare " + a + " " + b + " --threshold 5");
    if (r.err.find("has no zlib") != std::string::npos) GTEST_SKIP() << "hwcomm built without zlib";
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("machines differ in GPUs: 2x NVIDIA H200 vs 4x NVIDIA H200"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("43 records in both"), std::string::npos);
    EXPECT_NE(r.out.find("records only in B"), std::string::npos);
    EXPECT_NE(r.out.find("memcpy-peer|gpu2|gpu3|peer=on"), std::string::npos);  // only the 4-GPU machine has it
    EXPECT_NE(r.out.find("  memcpy-h2d|numa0|gpu0|host_mem=registered,numa=0"), std::string::npos);  // within 5%
    r = run_hwcomm(s, "compare " + a + " " + a);
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("0 records change beyond 5%"), std::string::npos);
    EXPECT_EQ(run_hwcomm(s, "compare " + a + " missing.json").code, 2);
}
