// The study's DGX-1 column of its six tables, drawn by `analyze` from the
// study's own data (docs/analysis.md explains each cell that differs).
#include <gtest/gtest.h>

#include "analyze/dgx1_fixture.hpp"
#include "analyze/study.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

const Analysis& dgx1() {
    static const Analysis a = analyze_results({{"dgx1", test::dgx1_import().results}});
    return a;
}

const Cell& cell(const std::string& key) {
    for (const Cell& c : dgx1().cells)
        if (c.key == key) return c;
    throw std::runtime_error("no cell " + key);
}

}  // namespace

TEST(Dgx1Study, AffinityTable) {
    EXPECT_EQ(cell("affinity|cpu-gpu|pageable|h2d").verdict, "false");
    EXPECT_EQ(cell("affinity|cpu-gpu|pageable|d2h").verdict, "true");
    EXPECT_NEAR(*cell("affinity|cpu-gpu|pageable|d2h").effect, 0.23, 0.02);  // local faster
    EXPECT_EQ(cell("affinity|cpu-gpu|pinned|h2d").verdict, "false");
    EXPECT_EQ(cell("affinity|cpu-gpu|pinned|d2h").verdict, "false");
    EXPECT_EQ(cell("affinity|cpu-gpu|wc|h2d").verdict, "no-data");  // not in the fixture
}

TEST(Dgx1Study, HostDeviceAnisotropyTable) {
    for (const char* k : {"anisotropy|cpu-gpu|pageable|local", "anisotropy|cpu-gpu|pageable|remote",
                          "anisotropy|cpu-gpu|pinned|local", "anisotropy|cpu-gpu|pinned|remote"})
        EXPECT_EQ(cell(k).verdict, "true") << k;
    // Pinned: device-to-host about 11% faster than host-to-device (the study: "2 GB/s").
    EXPECT_NEAR(*cell("anisotropy|cpu-gpu|pinned|local").effect, -0.108, 0.005);
}

TEST(Dgx1Study, IdenticalHostDeviceLinksTable) {
    for (const char* k : {"identical_links|cpu-gpu|pageable|h2d", "identical_links|cpu-gpu|pageable|d2h",
                          "identical_links|cpu-gpu|pinned|h2d", "identical_links|cpu-gpu|pinned|d2h"})
        EXPECT_EQ(cell(k).verdict, "false") << k;
}

TEST(Dgx1Study, PeerEffectTable) {
    const Cell& local = cell("peer_effect|gpu-gpu|local");
    EXPECT_EQ(local.verdict, "true");
    EXPECT_NEAR(*local.effect, 0.775, 0.02);  // "roughly doubling"
    EXPECT_EQ(local.evidence["per_pair"].size(), 4u);
    EXPECT_EQ(local.evidence["per_pair"][0]["binding"], "numa0");  // the NUMA node of the source GPU
    EXPECT_EQ(cell("peer_effect|gpu-gpu|remote").verdict, "n/a");
}

TEST(Dgx1Study, GpuGpuAnisotropyTableHasNoReverseDirectionsInTheData) {
    // The fixture's GPU-GPU copies all start at GPU0: no pair is measured both ways.
    EXPECT_EQ(cell("anisotropy|gpu-gpu|peer_on|local").verdict, "no-data");
    EXPECT_EQ(cell("anisotropy|gpu-gpu|peer_off|local").verdict, "no-data");
    EXPECT_EQ(cell("anisotropy|gpu-gpu|peer_off|remote").verdict, "no-data");
    EXPECT_EQ(cell("anisotropy|gpu-gpu|peer_on|remote").verdict, "n/a");
}

TEST(Dgx1Study, IdenticalGpuGpuLinksTable) {
    EXPECT_EQ(cell("identical_links|gpu-gpu|peer_on|local").verdict, "false");
    const Cell& off = cell("identical_links|gpu-gpu|peer_off|local");
    EXPECT_EQ(off.verdict, "true");  // GPU0-GPU1 slower than GPU0-GPU2/3/4
    // One group: the NVLink neighbours' link class (nvidia-smi class NV1).
    ASSERT_EQ(off.evidence["groups"].size(), 1u);
    const nlohmann::json& nv1 = off.evidence["groups"].begin().value();
    EXPECT_EQ(nv1["path_class"], "NV1");
    EXPECT_EQ(nv1["slowest"], "memcpy-peer|gpu0|gpu1|numa=0,peer=off");
    EXPECT_EQ(cell("identical_links|gpu-gpu|peer_on|remote").verdict, "n/a");
    EXPECT_EQ(cell("identical_links|gpu-gpu|peer_off|remote").verdict, "false");
}

TEST(Dgx1Study, JsonFollowsSchemaV1WithOneSeriesPerBinding) {
    const nlohmann::json j = analysis_to_json(dgx1());
    EXPECT_EQ(j["schema"], "hwcomm.analyze/v1");
    EXPECT_EQ(j["cells"].size(), 28u);
    for (const auto& c : j["cells"]) {
        EXPECT_TRUE(c.contains("key") && c.contains("verdict") && c.contains("effect") && c.contains("evidence"));
        if (c["link"] == "cpu-gpu") {
            EXPECT_TRUE(c.contains("host_alloc"));
        }
        if (c["table"] == "peer_effect") {
            EXPECT_FALSE(c.contains("peer"));
        }
    }
    EXPECT_EQ(j["cells"][0]["verdict"], false);  // JSON booleans, not strings
    EXPECT_EQ(j["series"].size(), 86u);  // every curve, the pageable-to-pinned staging copies included
    int staging = 0;
    for (const auto& s : j["series"]) staging += s["host_alloc"] == "pageable-to-pinned";
    EXPECT_EQ(staging, 4);
    int peer_off_gpu1 = 0;
    for (const auto& s : j["series"]) {
        if (s["src"] == "gpu0" && s["dst"] == "gpu1" && s["peer"] == "off") {
            ++peer_off_gpu1;
            EXPECT_TRUE(s["numa"].is_number());
            EXPECT_TRUE(s["host_alloc"].is_null());
        }
        if (s["host_alloc"] == "pinned" && s["src"] == "cpu1") {
            EXPECT_EQ(s["numa"], 1);
        }
    }
    EXPECT_EQ(peer_off_gpu1, 2);  // one series per NUMA binding
}

TEST(Dgx1Study, EfficiencyAndAnomalies) {
    const Analysis& a = dgx1();
    bool pinned = false;
    for (const Efficiency& e : a.efficiency)
        if (e.key == "memcpy-h2d|numa0|gpu0|host_mem=pinned,numa=0") {
            pinned = true;
            EXPECT_NEAR(e.limit_gbps, 15.754, 0.001);  // PCIe 3.0 x16
            EXPECT_NEAR(e.fraction, 11.05 / 15.754, 0.01);
        }
    EXPECT_TRUE(pinned);
    std::map<std::string, int> kinds;
    for (const Anomaly& x : a.anomalies) ++kinds[x.kind];
    EXPECT_EQ(kinds["pageable-far-below-pinned"], 16);  // every pageable D2H
    EXPECT_EQ(kinds["identical-links-differ"], 1);
    EXPECT_EQ(kinds["remote-faster-than-local"], 0);
    EXPECT_EQ(kinds["peer-slower-than-staging"], 0);
}

TEST(Dgx1Study, MarkdownAndTextNameEachVerdict) {
    const std::string md = format_analysis_markdown(dgx1());
    EXPECT_NE(md.find("| affinity | cpu-gpu | pageable\\|d2h | yes | +23.0% |"), std::string::npos) << md;
    const std::string text = format_analysis_text(dgx1());
    EXPECT_NE(text.find("peer_effect|gpu-gpu|remote                   n/a"), std::string::npos) << text;
    // An identical-links verdict says over how many links and at how many sizes it was decided.
    int groups = 0;
    for (const Cell& c : dgx1().cells) {
        if (c.table != "identical_links" || !c.evidence.contains("groups")) continue;
        for (const auto& [name, g] : c.evidence["groups"].items()) {
            const int sizes = g.value("sizes", 0);
            if (sizes < 1) continue;
            const std::string said = name + ": " + std::to_string(g.value("n", 0)) + " links at " +
                                     std::to_string(sizes) + (sizes == 1 ? " size" : " sizes");
            EXPECT_NE(text.find(said), std::string::npos) << said << "\n" << text;
            ++groups;
        }
    }
    EXPECT_GT(groups, 0);
}
