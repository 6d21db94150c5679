// hwcomm run / list / predict --transfers end to end: sets of CPU lanes
// measured on this machine, GPU sets checked against the fixture machines,
// and every bad file refused with one line before anything is written.
#include <gtest/gtest.h>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

void expect_refused(const Result& r, const std::string& starts) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("hwcomm: error: " + starts, 0), 0u) << r.err;
}

const char* kSets =
    "set,executor,src,dst,size,host_mem\n"
    "pair,cpu:1,numa0,numa0,64K\n"
    "pair,cpu:2,numa0,numa0,64K\n"
    "sweep,cpu:1,numa0,numa0,sweep\n";

const nlohmann::json* record_of(const nlohmann::json& doc, const std::string& set) {
    for (const auto& r : doc.at("records"))
        if (r.at("params").value("set", "") == set) return &r;
    return nullptr;
}

TEST(CliTransfers, EachSetIsOneRecordOfItsLanesStartedTogether) {
    Scratch s("transfers");
    write(s / "sets.csv", kSets);
    const Result r = run_hwcomm(s, "run --quick --max-size 64K --transfers sets.csv -o r.json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = read_json(s / "r.json");
    ASSERT_EQ(doc.at("records").size(), 2u);
    const auto* pair = record_of(doc, "pair");
    ASSERT_TRUE(pair);
    EXPECT_EQ(pair->at("key"), "transfer-set|numa0|numa0|set=pair");
    EXPECT_EQ(pair->at("status"), "ok") << pair->value("error", "");
    ASSERT_EQ(pair->at("lanes").size(), 2u);
    EXPECT_EQ(pair->at("lanes").at(0).at("label"), "numa0->numa0/cpu:1");
    EXPECT_EQ(pair->at("lanes").at(1).at("params").at("units"), "2");
    // A set with a size measures that size only.
    ASSERT_EQ(pair->at("points").size(), 1u);
    const auto& p = pair->at("points").at(0);
    EXPECT_EQ(p.at("bytes"), 65536);
    EXPECT_TRUE(p.at("verified").get<bool>());
    // The aggregate: the bytes of both lanes over the common window.
    EXPECT_DOUBLE_EQ(p.at("bytes_per_rep").get<double>(), 2 * 65536.0);
    const double window = p.at("stats").at("median").get<double>();
    EXPECT_NEAR(p.at("bandwidth_gbps").get<double>(), 2 * 65536.0 / window / 1e9, 1e-9);
    ASSERT_EQ(p.at("lanes").size(), 2u);
    for (const auto& lane : p.at("lanes")) {
        // Each sample's window holds each lane's span, so their medians keep the order.
        EXPECT_LE(lane.at("stats").at("median").get<double>(), window) << lane.dump();
        EXPECT_DOUBLE_EQ(lane.at("bytes_per_rep").get<double>(), 65536.0);
    }
    // A set without a size measures the run's sizes: --quick up to 64 KiB.
    const auto* sweep = record_of(doc, "sweep");
    ASSERT_TRUE(sweep);
    EXPECT_EQ(sweep->at("points").size(), 3u);
    // The file's sets are kept for --resume.
    const std::string kept = doc.at("meta").at("options").at("transfers").at("sets");
    EXPECT_NE(kept.find("pair,cpu:2,numa0,numa0,65536,"), std::string::npos) << kept;
    EXPECT_EQ(doc.at("meta").at("options").at("transfers").at("source"), "sets.csv");
    // The other commands read the records.
    const Result summary = run_hwcomm(s, "summary r.json");
    EXPECT_EQ(summary.code, 0) << summary.err;
    EXPECT_NE(summary.out.find("transfer-set"), std::string::npos) << summary.out;
    EXPECT_EQ(run_hwcomm(s, "analyze r.json").code, 0);
    EXPECT_EQ(run_hwcomm(s, "export --format jsonl r.json -o r.jsonl").code, 0);
}

TEST(CliTransfers, AResumeMeasuresTheKeptSetsEvenWhenTheFileIsGone) {
    Scratch s("transfers-resume");
    write(s / "sets.csv", kSets);
    const Result first = run_hwcomm(s, "run --quick --max-size 16K --transfers sets.csv --stop-after-records 1 -o r.json");
    ASSERT_EQ(first.code, 4) << first.err;
    fs::remove(s / "sets.csv");
    const Result rest = run_hwcomm(s, "run --resume r.json");
    ASSERT_EQ(rest.code, 0) << rest.err;
    const auto doc = read_json(s / "r.json");
    EXPECT_EQ(doc.at("records").size(), 2u);
    EXPECT_TRUE(record_of(doc, "sweep"));
    EXPECT_TRUE(doc.at("meta").at("run").at("finished").get<bool>());
}

TEST(CliTransfers, ABadFileIsOneLineNamingFileAndLineAndNothingIsWritten) {
    Scratch s("transfers-bad");
    std::ofstream(s / "existing.json") << "precious";
    const std::vector<std::pair<std::string, std::string>> cases{
        {"a,ce,numa0,numa0\n", "bad.csv:1: 4 fields"},
        {"# header\na,cpu,numa0,numa7,64K\n", "bad.csv:2: unknown destination 'numa7'"},
        {"a,ce,numa0,numa0,64K\n", "bad.csv:1: ce numa0->numa0: copy engines and kernels need a GPU end"},
        {"a,cpu,numa0,gpu0,64K\n", "bad.csv:1: unknown destination 'gpu0'"},
        {"a,cpu,numa0,numa0,64K\na,cpu@numa0,numa0,numa0,64K\n", "bad.csv:2: cpu@numa0 numa0->numa0: the same transfer as line 1"},
        {"a,cpu,numa0,numa0,1T\n", "bad.csv:1: set 'a' needs 1 buffer(s) of 1 TiB on numa0 by this line"},
        {"a,cpu,numa0,numa0,64K,pinned\n", "bad.csv:1: cpu numa0->numa0: host memory 'pinned' applies to"},
    };
    for (const auto& [text, starts] : cases) {
        write(s / "bad.csv", text);
        expect_refused(run_hwcomm(s, "run --quick --transfers bad.csv -o existing.json --force"), starts);
        expect_refused(run_hwcomm(s, "run --quick --transfers bad.csv -o new.json"), starts);
        EXPECT_FALSE(fs::exists(s / "new.json"));
        EXPECT_EQ(slurp(s / "existing.json"), "precious");
    }
    expect_refused(run_hwcomm(s, "run --transfers missing.csv -o new.json"), "cannot read transfer-set file missing.csv");
    expect_refused(run_hwcomm(s, "run --transfers preset:ring -o new.json"),
                   "--transfers preset:ring: needs two or more CUDA GPUs");
    write(s / "ok.csv", kSets);
    expect_refused(run_hwcomm(s, "run --transfers ok.csv --filter method=memcpy -o new.json"), "--transfers measures");
    EXPECT_FALSE(fs::exists(s / "new.json"));
    EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), {}), 3);  // existing.json, bad.csv, ok.csv
}

TEST(CliTransfers, GpuSetsAreCheckedAgainstAFixtureMachine) {
    Scratch s("transfers-list");
    if (!built_with_cuda(s)) GTEST_SKIP() << "this build has no CUDA methods";
    const std::string dgx1 = "--input " HWCOMM_FIXTURES "/hwloc/dgx1.xml";
    const Result all = run_hwcomm(s, "list " + dgx1 + " --transfers preset:all-to-all");
    ASSERT_EQ(all.code, 0) << all.err;
    EXPECT_NE(all.out.find("set all-to-all (line 2): 32 transfer(s), the run's sizes"), std::string::npos) << all.out;
    // Kernels on a ring need peer access at every step: the DGX H100's NVSwitches give it, the DGX-1 lacks it
    // from gpu3 to gpu4 (the preset's line 5).
    expect_refused(run_hwcomm(s, "list " + dgx1 + " --transfers preset:ring:sm:64M"),
                   "preset:ring:sm:64M:5: sm gpu3->gpu4: a kernel reaches another GPU only with peer access");
    const Result json =
        run_hwcomm(s, "list --input " HWCOMM_FIXTURES "/hwloc/dgxh100-nvswitch.xml --transfers preset:ring:sm:64M --json");
    ASSERT_EQ(json.code, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc.at("sets").at(0).at("lanes").size(), 8u);
    EXPECT_EQ(doc.at("sets").at(0).at("bytes"), 64 << 20);
    // The Minsky: no peer path between the sockets' GPUs for a kernel.
    write(s / "sm.csv", "x,ce,gpu0,gpu1,1G\nx,sm,gpu0,gpu2,1G\n");
    expect_refused(run_hwcomm(s, "list --input " HWCOMM_FIXTURES "/hwloc/power8gpudistances.xml --transfers sm.csv"),
                   "sm.csv:2: sm gpu0->gpu2: a kernel reaches another GPU only with peer access");
    // 16 GB P100s cannot hold two 8 GiB buffers.
    write(s / "big.csv", "x,ce,gpu0,gpu1,8G\nx,ce,gpu2,gpu1,8G\n");
    expect_refused(run_hwcomm(s, "list " + dgx1 + " --transfers big.csv"), "big.csv:2: set 'x' needs 2 buffer(s) of 8 GiB on gpu1");
}

TEST(CliTransfers, PredictSetsTheModelBesideTheHeldOutMeasurement) {
    Scratch s("transfers-predict");
    write(s / "sets.csv", "pair,cpu:1,numa0,numa0,64K\npair,cpu:2,numa0,numa0,64K\n");
    ASSERT_EQ(run_hwcomm(s, "run --quick --max-size 64K --filter method=memcpy -o single.json").code, 0);
    ASSERT_EQ(run_hwcomm(s, "run --quick --max-size 64K --transfers sets.csv -o sets.json").code, 0);
    const Result r = run_hwcomm(s, "predict single.json sets.json --transfers sets.csv --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc.at("sets").size(), 1u);
    const auto& set = doc.at("sets").at(0);
    const auto measured = read_json(s / "sets.json").at("records").at(0).at("points").at(0);
    EXPECT_EQ(set.at("measured").at("gbps"), measured.at("bandwidth_gbps"));
    EXPECT_TRUE(set.at("held_out").get<bool>());
    const double predicted = set.at("predicted").at("gbps").get<double>();
    EXPECT_NEAR(set.at("predicted_over_measured").get<double>(), predicted / measured.at("bandwidth_gbps").get<double>(), 1e-12);
    ASSERT_EQ(set.at("lanes").size(), 2u);
    EXPECT_EQ(set.at("lanes").at(0).at("predicted_as").get<std::string>().rfind("memcpy numa0->numa0", 0), 0u);
    // The aggregate is the bytes of both lanes over the slower one.
    const double slowest = std::min(set.at("lanes").at(0).at("gbps").get<double>(), set.at("lanes").at(1).at("gbps").get<double>());
    EXPECT_NEAR(predicted, 2 * slowest, 1e-9 * predicted);
    expect_refused(run_hwcomm(s, "predict single.json --transfers sets.csv --method memcpy"), "predict: --transfers");
    write(s / "sweep.csv", "all,cpu,numa0,numa0,\n");
    expect_refused(run_hwcomm(s, "predict single.json --transfers sweep.csv"), "sweep.csv:1: set 'all' moves the run's sizes");
}

}  // namespace
