// The host read probe (run/host_read_probe.hpp) on this machine: its size
// rule, its threads, its visits and what it writes.
#include <gtest/gtest.h>

#include <algorithm>

#include "platform/hwloc_topology.hpp"
#include "run/host_read_probe.hpp"

using namespace hwcomm;

TEST(HostReadProbe, TheBufferIsTwiceTheLastLevelCacheWithinItsBounds) {
    constexpr std::uint64_t MiB = 1 << 20;
    EXPECT_EQ(host_read_probe_bytes(0), 64 * MiB);  // cache unknown
    EXPECT_EQ(host_read_probe_bytes(32 * MiB), 64 * MiB);
    EXPECT_EQ(host_read_probe_bytes(300 * MiB), 600 * MiB);
    EXPECT_EQ(host_read_probe_bytes(2048 * MiB), 1024 * MiB);
    EXPECT_EQ(host_read_probe_bytes(~std::uint64_t{0}), 1024 * MiB);  // no overflow
    EXPECT_EQ(host_read_probe_bytes(100 * MiB + 1234) % 4096, 0u);
}

TEST(HostReadProbe, VisitsReadTheBufferWithOneThreadPerCoreAndAreKeptInOrder) {
    std::string why;
    const auto probe = make_host_read_probe(why);
    ASSERT_TRUE(probe) << why;
    const HwlocTopology topo;
    int numa = -1;
    for (const int n : topo.numa_os_indexes())
        if (numa < 0 && topo.cores_of_numa(n) > 0) numa = n;
    const unsigned expected_threads = std::min(topo.cores_of_numa(numa), kHostReadMaxThreads);
    const HostReadVisit first = probe->visit();
    EXPECT_GT(first.gbps, 0);
    probe->visit_if_due();  // just visited: not due
    EXPECT_EQ(probe->visits().size(), 1u);
    const HostReadVisit second = probe->visit();
    EXPECT_GE(second.t_s, first.t_s);
    const nlohmann::json j = probe->to_json();
    EXPECT_EQ(j.at("numa"), numa);
    EXPECT_EQ(j.at("threads"), expected_threads);
    EXPECT_EQ(j.at("reads_per_visit"), kHostReadReadsPerVisit);
    EXPECT_GE(j.at("bytes").get<std::uint64_t>(), std::uint64_t{64} << 20);
    ASSERT_EQ(j.at("visits").size(), 2u);
    EXPECT_DOUBLE_EQ(j.at("visits").at(1).at("gbps").get<double>(), second.gbps);
    // Around something that just ended: the last visit only; around the whole
    // probe's life: both; a record's annotation is the rates over its elapsed_s.
    EXPECT_EQ(probe->rates_over(0), nlohmann::json::array({second.gbps}));
    EXPECT_EQ(probe->rates_over(probe->elapsed_s() + 1), nlohmann::json::array({first.gbps, second.gbps}));
    Record r;
    r.context["elapsed_s"] = probe->elapsed_s() + 1;
    probe->annotate(r);
    EXPECT_EQ(r.context.at("host_read_gbps"), probe->rates_over(probe->elapsed_s() + 1));
}

TEST(HostReadSeries, KeepsTheSeriesInMetaAndAnnotatesRecordsAndRechecksOrSaysWhyThereIsNone) {
    nlohmann::json none_meta;
    HostReadSeries none(none_meta, "nothing measured on this node");
    Record untouched;
    untouched.context["recheck"] = {{"elapsed_s", 1.0}};
    none.after_record(untouched);
    none.after_recheck(untouched);
    none.finish();
    EXPECT_EQ(none_meta.at("run").at("host_read"), nlohmann::json({{"skipped", "nothing measured on this node"}}));
    EXPECT_FALSE(untouched.context.contains("host_read_gbps"));
    EXPECT_FALSE(untouched.context.at("recheck").contains("host_read_gbps"));

    nlohmann::json meta;
    {
        HostReadSeries series(meta);
        ASSERT_TRUE(meta.at("run").at("host_read").contains("visits")) << meta.dump();
        EXPECT_EQ(meta["run"]["host_read"]["visits"].size(), 1u);  // the first visit, at once
        Record record;
        record.context["elapsed_s"] = 3600.0;  // longer than the series: every visit's rate
        series.after_record(record);  // visits only when kHostReadEveryS have passed
        const nlohmann::json& visits = meta["run"]["host_read"]["visits"];
        ASSERT_EQ(record.context.at("host_read_gbps").size(), visits.size());
        for (std::size_t i = 0; i < visits.size(); ++i)
            EXPECT_DOUBLE_EQ(record.context["host_read_gbps"][i].get<double>(), visits[i]["gbps"].get<double>());
        record.context["recheck"] = {{"elapsed_s", 3600.0}, {"verdict", "within"}};
        series.after_recheck(record);
        EXPECT_EQ(record.context["recheck"].at("host_read_gbps"), record.context["host_read_gbps"]);
        EXPECT_EQ(record.context["recheck"].at("verdict"), "within");
        const std::size_t before = meta["run"]["host_read"]["visits"].size();
        series.finish();  // always visits
        EXPECT_EQ(meta["run"]["host_read"]["visits"].size(), before + 1);
    }
    EXPECT_GE(meta["run"]["host_read"]["visits"].size(), 2u);  // kept after the series is gone
}
