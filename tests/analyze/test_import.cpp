// hwcomm import: the name table, aggregates, bad files, and the study's DGX-1 data.
#include <gtest/gtest.h>

#include <cmath>

#include "analyze/dgx1_fixture.hpp"
#include "import/benchmark_names.hpp"

using namespace hwcomm;
using namespace hwcomm::import;
using nlohmann::json;

namespace {

MappedBenchmark mapped(const std::string& name) {
    std::string why;
    const auto m = map_benchmark(split_benchmark_name(name), &why);
    if (!m) throw std::runtime_error(why);
    return *m;
}

json entry(const std::string& name, double ns, double bytes = 1024) {
    return {{"name", name}, {"iterations", 10}, {"real_time", ns}, {"cpu_time", ns}, {"time_unit", "ns"},
            {"bytes", bytes}};
}

}  // namespace

TEST(ImportNames, StudyEraNamesMapToRecords) {
    auto m = mapped("NUMA_Memcpy_PinnedToGPU/20/1/3/manual_time");
    EXPECT_EQ(m.method, "memcpy-h2d");
    EXPECT_EQ(m.src, "numa1");
    EXPECT_EQ(m.dst, "gpu3");
    EXPECT_EQ(m.params, (std::map<std::string, std::string>{{"host_mem", "pinned"}, {"numa", "1"}}));
    EXPECT_EQ(m.bytes, 1u << 20);
    m = mapped("NUMA_Memcpy_GPUToWC/8/0/5/manual_time_mean");
    EXPECT_EQ(m.method, "memcpy-d2h");
    EXPECT_EQ(m.src, "gpu5");
    EXPECT_EQ(m.dst, "numa0");
    EXPECT_EQ(m.params.at("host_mem"), "wc");
    m = mapped("NUMA_Memcpy_HostToPinned/30/8/0/manual_time");  // NUMA ids are OS indexes, not sockets
    EXPECT_EQ(m.method, "memcpy-h2h");
    EXPECT_EQ(m.src, "numa8");
    EXPECT_EQ(m.dst, "numa0");
    m = mapped("NUMA_Memcpy_GPUToGPU/33/1/0/7/manual_time_stddev");
    EXPECT_EQ(m.method, "memcpy-peer");
    EXPECT_EQ(m.src, "gpu0");
    EXPECT_EQ(m.dst, "gpu7");
    EXPECT_EQ(m.params, (std::map<std::string, std::string>{{"numa", "1"}, {"peer", "off"}}));
    EXPECT_EQ(m.bytes, 1ull << 33);
    m = mapped("CUDA_Memcpy_GPUToGPU/10/0/4/manual_time");
    EXPECT_EQ(m.params, (std::map<std::string, std::string>{{"peer", "on"}}));
    EXPECT_EQ(split_benchmark_name("CUDA_Memcpy_GPUToGPU/10/0/4/manual_time_median").aggregate, "median");
}

TEST(ImportNames, CurrentCommNamesTakeTheirDevicesFromTheFlagsOrArguments) {
    auto m = mapped("Comm_Memcpy_GPUToGPUPeer/20/manual_time");
    EXPECT_EQ(m.src, "gpu0");
    EXPECT_EQ(m.dst, "gpu1");
    EXPECT_FALSE(m.note.empty());
    m = mapped("Comm_Memcpy_HostToGPU/2/log2(N):20/manual_time");
    EXPECT_EQ(m.dst, "gpu2");
    EXPECT_EQ(m.params.at("host_mem"), "pageable");
    m = mapped("Comm_Duplex_Memcpy_GPUGPU/12/manual_time");
    EXPECT_EQ(m.method, "duplex-d2d");
    EXPECT_DOUBLE_EQ(m.bytes_per_rep, 2.0 * 4096);
    std::string why;
    EXPECT_FALSE(map_benchmark(split_benchmark_name("UM_Prefetch_GPUToGPU/20/0/1"), &why));
    EXPECT_NE(why.find("unknown benchmark UM_Prefetch_GPUToGPU"), std::string::npos);
    EXPECT_FALSE(map_benchmark(split_benchmark_name("NUMA_Memcpy_HostToGPU/20/0"), &why));  // one argument short
    EXPECT_FALSE(map_benchmark(split_benchmark_name("NUMA_Memcpy_HostToGPU/x/0/1"), &why));
}

TEST(Importer, TheMeanIsTheCurveMedianAndStddevAreKeptBadInputIsCounted) {
    Importer imp;
    json doc = {{"context", {{"date", "2018-06-03"}}}, {"benchmarks", json::array()}};
    for (double ns : {1000.0, 1100.0, 1200.0}) doc["benchmarks"].push_back(entry("NUMA_Memcpy_PinnedToGPU/10/0/1/manual_time", ns));
    doc["benchmarks"].push_back(entry("NUMA_Memcpy_PinnedToGPU/10/0/1/manual_time_mean", 1050.0));
    doc["benchmarks"].push_back(entry("NUMA_Memcpy_PinnedToGPU/10/0/1/manual_time_median", 1100.0));
    doc["benchmarks"].push_back(entry("NUMA_Memcpy_PinnedToGPU/10/0/1/manual_time_stddev", 100.0, 0));
    doc["benchmarks"].push_back(entry("UM_Latency_GPUToGPU/10/0/1/manual_time", 5.0));
    doc["benchmarks"].push_back({{"iterations", 1}});  // no name
    imp.add_document(doc, "a.json");
    imp.add_document(json::object(), "b.json");
    imp.add_document({{"benchmarks", json::array()}}, "c.json");
    imp.add_file("/nonexistent/d.json");
    const ResultsFile f = imp.finish();
    ASSERT_EQ(f.records.size(), 1u);
    const Record& r = f.records[0];
    EXPECT_EQ(r.key, "memcpy-h2d|numa0|gpu1|host_mem=pinned,numa=0");
    EXPECT_EQ(r.provenance.value("kind", ""), "imported");
    ASSERT_EQ(r.points.size(), 1u);
    const Point& p = r.points[0];
    EXPECT_EQ(p.bytes, 1024u);
    EXPECT_NEAR(p.bandwidth_gbps, 1024 / 1050e-9 / 1e9, 1e-9);  // from the mean, as the study plotted
    EXPECT_NEAR(p.stats.median, 1100e-9, 1e-18);
    EXPECT_NEAR(p.stats.stdev, 100e-9, 1e-18);
    EXPECT_EQ(p.stats.n, 3u);
    EXPECT_EQ(p.samples_s.size(), 3u);
    const ImportReport& rep = imp.report();
    EXPECT_EQ(rep.files_read, 1u);
    EXPECT_EQ(rep.skipped.size(), 3u);
    EXPECT_EQ(rep.unknown.at("UM_Latency_GPUToGPU"), 1u);
    EXPECT_EQ(rep.problems.size(), 1u);
    EXPECT_NE(format_report(rep).find("skipped 3 files"), std::string::npos);
}

TEST(Importer, AggregatesWithoutRepetitionsLeaveTheOtherStatisticsAbsent) {
    Importer imp;
    imp.add_document({{"benchmarks", {entry("CUDA_Memcpy_GPUToGPU/20/0/1/manual_time_mean", 60000.0, 1 << 20)}}}, "x");
    const ResultsFile results = imp.finish();  // keep the file: the point lives in it
    const Point& p = results.records.at(0).points.at(0);
    EXPECT_TRUE(std::isnan(p.stats.min));
    EXPECT_TRUE(std::isnan(p.stats.ci95_low));
    EXPECT_NEAR(p.bandwidth_gbps, (1 << 20) / 60000e-9 / 1e9, 1e-9);
}

TEST(Dgx1Import, EightySixFilesGiveEightySixCurvesTwoEmptyFilesAreSkipped) {
    const auto& d = test::dgx1_import();
    EXPECT_EQ(d.report.files_read, 86u);
    EXPECT_EQ(d.report.skipped.size(), 2u);  // dgx-1-shared.json and an empty UM latency file
    EXPECT_TRUE(d.report.problems.empty());
    EXPECT_EQ(d.results.records.size(), 86u);
    std::map<std::string, int> methods;
    for (const Record& r : d.results.records) ++methods[r.method];
    EXPECT_EQ(methods, (std::map<std::string, int>{
                           {"memcpy-h2d", 32}, {"memcpy-d2h", 32}, {"memcpy-h2h", 4}, {"memcpy-peer", 18}}));
    const Record* pinned = d.results.find("memcpy-h2d|numa0|gpu0|host_mem=pinned,numa=0");
    ASSERT_NE(pinned, nullptr);
    EXPECT_EQ(pinned->points.size(), 26u);  // 256 B .. 8 GiB
    EXPECT_EQ(pinned->points.back().bytes, 1ull << 33);
    EXPECT_EQ(pinned->points.back().stats.n, 5u);
    EXPECT_NEAR(pinned->points.back().bandwidth_gbps, 11.05, 0.01);
    const Record* peer = d.results.find("memcpy-peer|gpu0|gpu1|peer=on");
    ASSERT_NE(peer, nullptr);
    EXPECT_EQ(peer->points.size(), 24u);  // 256 B .. 2 GiB
}
