// Identical-link anomalies (issue 21 item 4) on synthetic records over the
// DGX-1 topology: a member outside its class representative's spread is
// flagged, and nothing else; the identical-links cells group by link class.
#include <gtest/gtest.h>

#include <cmath>

#include "analyze/class_outliers.hpp"
#include "analyze/record_classes.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "peer_records.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

// A size sweep 64 MiB .. `largest` at `gbps`, each point's CI +-`ci`.
Record peer_record(const std::string& src, const std::string& dst, double gbps, double ci = 0.001,
                   const std::string& as = "", std::uint64_t largest = 1ull << 30) {
    return test::peer(src, dst, gbps, as, largest, ci);
}

ResultsFile dgx1_file() {
    ResultsFile f;
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx1.xml"), .use_nvml = false, .use_cuda = false});
    f.topology = graph_to_json(g);
    // The NVLink class (representative gpu0->gpu1): one member 12% slow, one 3% slow.
    f.records.push_back(peer_record("gpu0", "gpu1", 18.5));
    f.records.push_back(peer_record("gpu0", "gpu2", 18.4, 0.001, "confirmed"));
    f.records.push_back(peer_record("gpu2", "gpu3", 16.28, 0.001, "promoted"));
    f.records.push_back(peer_record("gpu4", "gpu0", 17.95, 0.001, "confirmed"));
    // The class across the sockets (representative gpu0->gpu5), its representative noisy: +-10%.
    f.records.push_back(peer_record("gpu0", "gpu5", 10.0, 0.10));
    f.records.push_back(peer_record("gpu1", "gpu4", 9.3, 0.001, "confirmed"));  // -7%: inside the CI
    return f;
}

}  // namespace

TEST(ClassOutliers, FlagsTheMemberOutsideItsClassAndNothingElse) {
    const ResultsFile f = dgx1_file();
    const Graph g = graph_from_json(f.topology);
    const ClassMap classes = record_classes(f, &g, "dgx1");
    EXPECT_EQ(classes.find({"gpu0", "gpu1"}), classes.find({"gpu4", "gpu0"}));
    const auto outliers = class_outliers(f, classes, VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_EQ(outliers[0].key, "memcpy-peer|gpu2|gpu3|peer=on");
    EXPECT_EQ(outliers[0].representative, "memcpy-peer|gpu0|gpu1|peer=on");
    EXPECT_EQ(outliers[0].measured_as, "promoted");
    // A round's lane stays a confirmation to programs, and says how it was measured to people.
    Record lane = peer_record("gpu0", "gpu2", 18.4, 0.001, "confirmed");
    lane.context["round"] = {{"lanes", {"gpu0->gpu2", "gpu1->gpu3"}}, {"lane", "gpu0->gpu2"}};
    EXPECT_EQ(measured_as(lane), "confirmed");
    EXPECT_NE(measured_as_text(lane).find("in a round"), std::string::npos);
    // Four links: against their median (18.175 GB/s), whose scatter (+-2.2%) is below the 5% threshold.
    EXPECT_EQ(outliers[0].class_links, 4u);
    EXPECT_NEAR(outliers[0].difference, 16.28 / 18.175 - 1, 1e-3);
    EXPECT_NEAR(outliers[0].tolerance, std::exp(3.5 * 0.015 / 0.6745) - 1, 2e-3);
    EXPECT_EQ(outliers[0].sizes.size(), 5u);  // 64 MiB .. 1 GiB
    const Anomaly a = outlier_anomaly(outliers[0]);
    EXPECT_EQ(a.kind, "identical-link-outlier");
    EXPECT_NE(a.text.find("-10.4% from the median of the 4 links of its class (representative "
                          "memcpy-peer|gpu0|gpu1|peer=on)"),
              std::string::npos)
        << a.text;
    EXPECT_NE(a.text.find("measured as promoted"), std::string::npos);
}

// A member without a point at a size is not one of the links whose median
// the outlier is compared with there: without gpu4->gpu0 at 1 GiB, three
// links make the class's median at that size.
TEST(ClassOutliers, TheLinksCountedAreThoseWithAPointAtTheSizesCompared) {
    ResultsFile f = dgx1_file();
    ASSERT_EQ(f.records[3].key, "memcpy-peer|gpu4|gpu0|peer=on");
    ASSERT_EQ(f.records[3].points.back().bytes, 1ull << 30);
    f.records[3].points.pop_back();
    const Graph g = graph_from_json(f.topology);
    const auto outliers = class_outliers(f, record_classes(f, &g, "dgx1"), VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_EQ(outliers[0].key, "memcpy-peer|gpu2|gpu3|peer=on");
    EXPECT_EQ(outliers[0].sizes.size(), 5u);  // 64 MiB .. 1 GiB: four links below 1 GiB, three there
    EXPECT_EQ(outliers[0].class_links, 3u);
    const Anomaly a = outlier_anomaly(outliers[0]);
    EXPECT_NE(a.text.find("from the median of the 3 links of its class"), std::string::npos) << a.text;
    // Without it at every size, the class's median is of three links everywhere.
    f.records[3].points.clear();
    const auto three = class_outliers(f, record_classes(f, &g, "dgx1"), VerdictRule{});
    ASSERT_EQ(three.size(), 1u);
    EXPECT_EQ(three[0].class_links, 3u);
}

// Of two links the representative is the reference: -7% is inside its +-10%
// CI, outside a +-0.1% one. Three links evenly spread (10, 9.3, 8.5 GB/s)
// have no one unlike the others: the class's scatter holds them all.
TEST(ClassOutliers, TwoLinksAreComparedWithTheRepresentativeThreeWithTheirScatter) {
    ResultsFile f = dgx1_file();
    const Graph g = graph_from_json(f.topology);
    auto cross_socket = [&](const ResultsFile& file) {
        std::vector<ClassOutlier> found;
        for (const ClassOutlier& o : class_outliers(file, record_classes(file, &g, "dgx1"), VerdictRule{}))
            if (o.representative == "memcpy-peer|gpu0|gpu5|peer=on") found.push_back(o);
        return found;
    };
    EXPECT_TRUE(cross_socket(f).empty());
    f.records[4] = peer_record("gpu0", "gpu5", 10.0, 0.001);
    const auto two = cross_socket(f);
    ASSERT_EQ(two.size(), 1u);
    EXPECT_EQ(two[0].key, "memcpy-peer|gpu1|gpu4|peer=on");
    EXPECT_EQ(two[0].class_links, 0u);
    f.records.push_back(peer_record("gpu1", "gpu6", 8.5, 0.001, "confirmed"));
    const ClassMap classes = record_classes(f, &g, "dgx1");
    ASSERT_TRUE(classes.find({"gpu1", "gpu6"}));
    ASSERT_EQ(classes.find({"gpu0", "gpu5"})->id, classes.find({"gpu1", "gpu6"})->id);
    EXPECT_TRUE(cross_socket(f).empty());
}

// A representative off its siblings is the one flagged, not every sibling.
TEST(ClassOutliers, ARepresentativeOffItsClassIsTheOneFlagged) {
    ResultsFile f = dgx1_file();
    f.records[0] = peer_record("gpu0", "gpu1", 21.0);  // the NVLink representative 15% above the rest
    f.records[2] = peer_record("gpu2", "gpu3", 18.3, 0.001, "confirmed");
    const Graph g = graph_from_json(f.topology);
    const auto outliers = class_outliers(f, record_classes(f, &g, "dgx1"), VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_EQ(outliers[0].key, "memcpy-peer|gpu0|gpu1|peer=on");
    EXPECT_GT(outliers[0].difference, 0.1);
}

TEST(ClassOutliers, AnalyzeReportsThemAndGroupsIdenticalLinksByClass) {
    const Analysis a = analyze_results({{"dgx1", dgx1_file()}});
    std::size_t outliers = 0;
    for (const Anomaly& x : a.anomalies) outliers += x.kind == "identical-link-outlier";
    EXPECT_EQ(outliers, 1u);
    for (const Cell& c : a.cells) {
        if (c.key != "identical_links|gpu-gpu|peer_on|local") continue;
        ASSERT_TRUE(c.evidence.contains("groups")) << c.evidence.dump();
        ASSERT_EQ(c.evidence["groups"].size(), 1u) << c.evidence.dump();
        // The json iterator, not items(): a structured binding to items()' temporary proxy dangles (ASan).
        const auto first = c.evidence["groups"].cbegin();
        const std::string id = first.key();
        const auto& group = first.value();
        EXPECT_EQ(id, "c0");
        EXPECT_EQ(group["n"], 4);
        EXPECT_NE(group["class"].get<std::string>().find("NV1 direct"), std::string::npos);
        return;
    }
    ADD_FAILURE() << "no identical-links cell for local peer-on pairs";
}

TEST(ClassOutliers, StoredClassesAreReadAndMalformedOnesRefused) {
    ResultsFile f = dgx1_file();
    const Graph g = graph_from_json(f.topology);
    // Stored classes that say gpu2->gpu3 is a class of its own: nothing to compare it with.
    f.link_classes = class_map_to_json(classify(g, {{"gpu0", "gpu1"}, {"gpu0", "gpu2"}, {"gpu4", "gpu0"},
                                                    {"gpu0", "gpu5"}, {"gpu1", "gpu4"}}));
    f.link_classes["classes"].push_back({{"id", "c9"}, {"signature", "planted"}, {"description", "planted"},
                                         {"rates_known", true},
                                         {"members", nlohmann::json::array({nlohmann::json::array({"gpu2", "gpu3"})})}});
    EXPECT_TRUE(class_outliers(f, record_classes(f, &g, "f"), VerdictRule{}).empty());
    f.link_classes["classes"][0]["members"] = 3;
    try {
        (void)record_classes(f, &g, "f.json");
        ADD_FAILURE() << "accepted malformed classes";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("f.json: malformed link classes", 0), 0u) << e.what();
    }
}

TEST(ClassOutliers, ComparableParamsDropANumaThatRepeatsTheEndpoint) {
    Record r;
    r.src = "numa1";
    r.dst = "gpu4";
    r.params = {{"host_mem", "pinned"}, {"numa", "1"}};
    EXPECT_EQ(comparable_params(r), (std::map<std::string, std::string>{{"host_mem", "pinned"}}));
    r.params["numa"] = "0";  // a binding of its own: kept
    EXPECT_EQ(comparable_params(r).size(), 2u);
    EXPECT_EQ(measured_as(r), "full");
}

// The class's centre is drawn where half its links at least have a point. At
// sizes only full sweeps reach, the representative and a few promoted members
// alike would be their own median and hide what the confirmations' size
// shows (nvidia-h200-x4 a58615a: three peer chases from gpu2 were 3 of the 5
// curves past 64 MiB).
TEST(ClassOutliers, PromotedMembersAlikeDoNotMakeTheCentreWhereOnlyFullSweepsReach) {
    ResultsFile f;
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx1.xml"), .use_nvml = false, .use_cuda = false});
    f.topology = graph_to_json(g);
    f.records.push_back(peer_record("gpu0", "gpu1", 18.5));  // the representative, 64 MiB .. 1 GiB
    for (const auto& [src, dst] : std::vector<std::pair<std::string, std::string>>{
             {"gpu0", "gpu2"}, {"gpu0", "gpu3"}, {"gpu0", "gpu4"}, {"gpu1", "gpu0"},
             {"gpu1", "gpu2"}, {"gpu1", "gpu3"}, {"gpu2", "gpu0"}, {"gpu2", "gpu1"}})
        f.records.push_back(peer_record(src, dst, 18.45, 0.001, "confirmed", 64ull << 20));  // 64 MiB only
    for (const char* dst : {"gpu0", "gpu1", "gpu2"}) f.records.push_back(peer_record("gpu3", dst, 19.8, 0.001, "promoted"));
    const Graph topo = graph_from_json(f.topology);
    const ClassMap classes = record_classes(f, &topo, "dgx1");
    ASSERT_EQ(classes.find({"gpu0", "gpu1"}), classes.find({"gpu3", "gpu2"}));
    const auto outliers = class_outliers(f, classes, VerdictRule{});
    ASSERT_EQ(outliers.size(), 3u);
    for (const ClassOutlier& o : outliers) {
        EXPECT_EQ(o.measured_as, "promoted") << o.key;
        EXPECT_EQ(o.class_links, 12u) << o.key;
        EXPECT_EQ(o.sizes, (std::vector<std::uint64_t>{64ull << 20})) << o.key;
        EXPECT_NEAR(o.difference, 19.8 / 18.45 - 1, 1e-3) << o.key;
    }
}

// A record of host memory outside its class names how fast the host read
// around it against its class's records (context.host_read_gbps): in the
// outlier's direction the host may explain it, within 5% it does not.
TEST(ClassOutliers, AHostMemoryOutlierSaysWhatTheHostReadAroundIt) {
    ResultsFile f;
    const Graph g = discover_machine({.input_xml = test::fixture("hwloc/dgx1.xml"), .use_nvml = false, .use_cuda = false});
    f.topology = graph_to_json(g);
    const auto h2d = [](const std::string& dst, double gbps, double host_gbps) {
        Record r = peer_record("numa0", dst, gbps, 0.001, "confirmed");
        r.method = "memcpy-h2d";
        r.params = {{"host_mem", "pinned"}};
        r.key = record_key(r.method, r.src, r.dst, r.params);
        r.context["host_read_gbps"] = nlohmann::json::array({host_gbps, host_gbps});
        return r;
    };
    for (int gpu = 0; gpu < 8; ++gpu) f.records.push_back(h2d("gpu" + std::to_string(gpu), 12, 100));
    const ClassMap classes = record_classes(f, &g, "dgx1");
    const LinkClass* c = classes.find({"numa0", "gpu0"});
    ASSERT_TRUE(c) << "no class of numa0 -> gpu0 on the DGX-1";
    ASSERT_GE(c->members.size(), 3u);
    const std::string slow = c->members[1].dst;
    Record* member = nullptr;
    for (Record& r : f.records)
        if (r.dst == slow) member = &r;
    ASSERT_TRUE(member);
    // 15% slow while the host read 20% slower than around the class's records: may be the host.
    *member = h2d(slow, 10.2, 80);
    auto outliers = class_outliers(f, classes, VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_EQ(outliers[0].key, member->key);
    ASSERT_TRUE(outliers[0].host_read_ratio);
    EXPECT_NEAR(*outliers[0].host_read_ratio, 0.8, 1e-12);
    std::string text = outlier_anomaly(outliers[0]).text;
    EXPECT_NE(text.find("around it the host read probe read -20.0% against its class's records: the difference may "
                        "be the host's, not the link's"),
              std::string::npos)
        << text;
    // The host 6% slower around a 15% slower record: part of it at most; 6% faster: the other way.
    *member = h2d(slow, 10.2, 94);
    text = outlier_anomaly(class_outliers(f, classes, VerdictRule{}).at(0)).text;
    EXPECT_NE(text.find("-6.0% against its class's records: the host explains part of the difference at most"),
              std::string::npos)
        << text;
    *member = h2d(slow, 10.2, 106);
    text = outlier_anomaly(class_outliers(f, classes, VerdictRule{}).at(0)).text;
    EXPECT_NE(text.find("+6.0% against its class's records: the host moved the other way"), std::string::npos) << text;
    // The same difference with the host as fast around it: the link's.
    *member = h2d(slow, 10.2, 98);
    outliers = class_outliers(f, classes, VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    text = outlier_anomaly(outliers[0]).text;
    EXPECT_NE(text.find("-2.0% against its class's records: the host read as fast around it (the probe visits at most every 2 s"),
              std::string::npos)
        << text;
    // Without visits around it nothing is said of the host.
    member->context.erase("host_read_gbps");
    outliers = class_outliers(f, classes, VerdictRule{});
    ASSERT_EQ(outliers.size(), 1u);
    EXPECT_FALSE(outliers[0].host_read_ratio);
    EXPECT_EQ(outlier_anomaly(outliers[0]).text.find("host read probe"), std::string::npos);
}
