// hwcomm model fit / predict / model check end to end on the committed example.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "cli/cli_helpers.hpp"

using namespace hwcomm::test;

namespace {

const std::string kExample = "'" + std::string(HWCOMM_DOCS) + "/examples/h200x2/results-default.json.gz'";

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST(ModelCli, FitThenPredictAMeasuredPairNamesItsRecordAndBottleneck) {
    Scratch s("model-fit");
    Result r = run_hwcomm(s, "model fit " + kExample + " -o model.json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto model = read_json(s / "model.json");
    EXPECT_EQ(model["schema"].get<std::string>(), "hwcomm-model");
    EXPECT_EQ(model["sources"][0]["revision"].get<std::string>(), "f38c90b");
    // Never overwritten without --force.
    r = run_hwcomm(s, "model fit " + kExample + " -o model.json");
    EXPECT_EQ(r.code, 2);
    r = run_hwcomm(s, "predict --model model.json --method memcpy-h2d:host_mem=pinned --src numa0 --dst gpu0 "
                      "--size 64M --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out)["prediction"];
    EXPECT_EQ(j["basis"].get<std::string>(), "measured");
    EXPECT_EQ(j["regime"].get<std::string>(), "plateau");
    EXPECT_EQ(j["limit"].get<std::string>(), "PCIe 5.0 x16");
    EXPECT_NEAR(j["gbps"].get<double>(), 55.1, 0.5);
    EXPECT_LE(j["gbps_interval"][0].get<double>(), j["gbps"].get<double>());
    EXPECT_GE(j["gbps_interval"][1].get<double>(), j["gbps"].get<double>());
    EXPECT_NE(j["rests_on"][0].get<std::string>().find("memcpy-h2d|numa0|gpu0|host_mem=pinned,numa=0"),
              std::string::npos);
}

TEST(ModelCli, PredictUnderLoadAndAmbiguousParameters) {
    Scratch s("model-predict");
    Result r = run_hwcomm(s, "predict " + kExample + " --method memcpy-peer:peer=on --src gpu0 --dst gpu1 "
                                 "--size 1G --while 'memcpy-peer:peer=on gpu0->gpu1 1G'");
    ASSERT_EQ(r.code, 0) << r.err;
    // No record of this file measured transfers together: the edge is unmeasured, bounded by its stated rate.
    EXPECT_NE(r.out.find("shared: gpu0->nvswitch-fabric (NVLink 4.0 x18, stated 478.1 GB/s): 2 transfers"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unmeasured: no record measured transfers sharing it"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the model cannot answer under load"), std::string::npos) << r.out;
    // memcpy-peer gpu0->gpu1 was measured with peer on and off: the parameters must say which.
    r = run_hwcomm(s, "predict " + kExample + " --method memcpy-peer --src gpu0 --dst gpu1 --size 1G");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("ambiguous"), std::string::npos);
}

TEST(ModelCli, PredictUnderLoadOnTheFourGpuSweepNamesTheCurveAndTheCounts) {
    Scratch s("model-load");
    const std::string x4 = "'" + std::string(HWCOMM_DOCS) + "/examples/h200x4/";
    Result r = run_hwcomm(s, "predict " + x4 + "concurrency.json.gz' " + x4 + "under-load.json.gz' "
                             "--method memcpy-h2d:host_mem=pinned --src numa0 --dst gpu0 --size 1G "
                             "--while 'memcpy-h2d:host_mem=pinned numa0->gpu1 1G' "
                             "--while 'memcpy-h2d:host_mem=pinned numa0->gpu2 1G'");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("shared: numa0->pci0000:00 (membership link, no stated rate): 3 transfers "
                         "(memcpy-h2d host_mem=pinned x3)"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("at 3 transfers (measured)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("memcpy-h2d host_mem=pinned measured at 2, 3, 4 transfers"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("rests on 13 record(s)"), std::string::npos) << r.out;
    r = run_hwcomm(s, "model check " + x4 + "concurrency.json.gz' " + x4 + "under-load.json.gz' --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["leave_one_level_out"]["groups"].size(), 3u);
    EXPECT_EQ(j["leave_one_member_out"]["groups"].size(), 8u);  // 4 GPUs on each direction of the host side
    EXPECT_TRUE(j["under_load"].is_null());
}

TEST(ModelCli, BadModelFileIsExitTwoAndOneLine) {
    Scratch s("model-bad");
    std::ofstream(s / "bad.json") << R"({"schema": "hwcomm-model", "version": "1.0", "sources": []})";
    Result r = run_hwcomm(s, "predict --model bad.json --method memcpy-peer --src gpu0 --dst gpu1 --size 1G");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
    std::ofstream(s / "results.json") << "{}";
    r = run_hwcomm(s, "predict --model results.json --method m --src a --dst b --size 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not a model file"), std::string::npos) << r.err;
    // A model file of version 1 (one fixed capacity per shared edge) is refused with one line naming it.
    r = run_hwcomm(s, "model fit " + kExample + " -o v2.json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto old = read_json(s / "v2.json");
    old["version"] = "1.0";
    std::ofstream(s / "v1.json") << old.dump();
    r = run_hwcomm(s, "predict --model v1.json --method memcpy-peer:peer=on --src gpu0 --dst gpu1 --size 1G");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("version 1.0"), std::string::npos) << r.err;
    r = run_hwcomm(s, "model check missing.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
}
