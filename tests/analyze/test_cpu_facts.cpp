// The CPU memory section from hand-made records: both byte counts, the
// latency ladder's windows and steps, the idle latency and mix matrices, the
// loaded-latency curve and the DRAM statement.
#include <gtest/gtest.h>

#include "analyze/cpu_facts.hpp"
#include "analyze/record_facts.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

Point point(std::uint64_t bytes, double seconds_median, double seconds_min) {
    Point p;
    p.bytes = bytes;
    p.bytes_per_rep = static_cast<double>(bytes);
    p.stats.n = 10;
    p.stats.median = seconds_median;
    p.stats.min = seconds_min;
    p.stats.ci95_low = seconds_median * 0.99;
    p.stats.ci95_high = seconds_median * 1.01;
    p.bandwidth_gbps = static_cast<double>(bytes) / seconds_median / 1e9;
    p.peak_bandwidth_gbps = static_cast<double>(bytes) / seconds_min / 1e9;
    p.stop_reason = "converged";
    return p;
}

Record copy_record() {
    Record r;
    r.method = "cpu-copy";
    r.src = r.dst = "numa0";
    r.params = {{"stores", "nt"}};
    r.context["byte_convention"] = {{"counted", "each byte copied once"}, {"stream_kernel", "Copy"}, {"stream_factor", 2}};
    r.context["dram"] = {{"theoretical_gbps", nullptr}, {"note", "no SMBIOS table readable"}};
    r.points = {point(64 * MiB, 64 * MiB / 20e9, 64 * MiB / 25e9), point(1024 * MiB, 1024 * MiB / 20e9, 1024 * MiB / 22e9)};
    r.points.back().best_variant = "2";
    return r;
}

Record latency_record(const std::string& src, const std::string& dst, double dram_ns) {
    Record r;
    r.method = "cpu-latency";
    r.src = src;
    r.dst = dst;
    r.context["caches"] = {{"l1d_bytes", 32 * KiB}, {"l2_bytes", 1 * MiB}, {"llc_bytes", 32 * MiB}};
    // 1 ns in L1, 4 ns in L2, 12 ns in L3, dram_ns beyond.
    for (std::uint64_t b = 4 * KiB; b <= 256 * MiB; b *= 2) {
        Point p = point(b, 1e-3, 1e-3);
        const double ns = b <= 16 * KiB ? 1 : b <= 512 * KiB ? 4 : b <= 16 * MiB ? 12 : b <= 64 * MiB ? 60 : dram_ns;
        p.metrics["latency_ns"] = {ns, "ns"};
        r.points.push_back(p);
    }
    return r;
}

}  // namespace

TEST(CpuFacts, BandwidthRowsKeepBothByteCountsAndTheBestOfN) {
    const auto rows = cpu_bandwidth_rows({copy_record()});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].bytes, 1024 * MiB);  // the largest size
    EXPECT_NEAR(rows[0].median_gbps, 20, 1e-9);
    EXPECT_NEAR(rows[0].best_gbps, 22, 1e-9);
    EXPECT_EQ(rows[0].stream_factor, 2);
    EXPECT_EQ(rows[0].variant, "2");
    const auto j = cpu_facts_json({copy_record()});
    EXPECT_NEAR(j.at("bandwidth")[0].at("stream_median_gbps").get<double>(), 40, 1e-9);
    const std::string text = format_cpu_section({copy_record()});
    EXPECT_NE(text.find("Copy x2: 40.0 / 44.0"), std::string::npos) << text;
    EXPECT_NE(text.find("theoretical DRAM bandwidth: none: no SMBIOS table readable"), std::string::npos) << text;
}

TEST(CpuFacts, TheLadderHasItsCacheWindowsAndSteps) {
    const CpuLatencyLadder l = cpu_latency_ladder(latency_record("numa0", "numa0", 100));
    EXPECT_EQ(*l.l1_ns, 1);
    EXPECT_EQ(*l.l2_ns, 4);
    EXPECT_EQ(*l.llc_ns, 12);
    EXPECT_EQ(*l.dram_ns, 100);  // >= 4x the 32 MiB LLC: 128 and 256 MiB
    EXPECT_EQ(*l.l2_step, 32 * KiB);
    EXPECT_EQ(*l.llc_step, 1 * MiB);
    EXPECT_EQ(*l.dram_step, 32 * MiB);
}

// The 16-core H100 guest (docs/examples/h100x1/cpu-9a037c6): lscpu reports
// a 300 MiB L3, the ladder reaches its 1 GiB latency from 16 MiB.
TEST(CpuFacts, ALadderThatReachesMemoryInsideTheReportedLlcSaysSo) {
    Record r;
    r.method = "cpu-latency";
    r.src = r.dst = "numa0";
    r.context["caches"] = {{"l1d_bytes", 48 * KiB}, {"l2_bytes", 2 * MiB}, {"llc_bytes", 300 * MiB}};
    const std::vector<std::pair<std::uint64_t, double>> measured{
        {4 * KiB, 2.2},    {32 * KiB, 2.3},   {64 * KiB, 5.6},   {1 * MiB, 6.1},     {2 * MiB, 35.2},
        {4 * MiB, 36.8},   {8 * MiB, 84.2},   {16 * MiB, 126.0}, {32 * MiB, 120.5},  {64 * MiB, 123.9},
        {128 * MiB, 122.9}, {256 * MiB, 122.3}, {512 * MiB, 120.3}, {1024 * MiB, 119.7}};
    for (const auto& [bytes, ns] : measured) {
        Point p = point(bytes, 1e-3, 1e-3);
        p.metrics["latency_ns"] = {ns, "ns"};
        r.points.push_back(p);
    }
    const CpuLatencyLadder l = cpu_latency_ladder(r);
    ASSERT_TRUE(l.memory_from);
    EXPECT_EQ(*l.memory_from, 16 * MiB);
    EXPECT_NEAR(*l.memory_ns, 122.3, 1e-9);  // the median of the seven rungs from 16 MiB
    EXPECT_TRUE(l.llc_window_reads_memory);
    EXPECT_FALSE(l.dram_ns);  // no working set >= 4x the reported 300 MiB
    const std::string text = format_cpu_section({r});
    EXPECT_NE(text.find("memory level 122.3 ns from 16 MiB on"), std::string::npos) << text;
    EXPECT_NE(text.find("this core sees a smaller last-level cache than the OS reports"), std::string::npos) << text;
    EXPECT_TRUE(cpu_facts_json({r}).at("ladders")[0].at("llc_window_reads_memory").get<bool>());
    // A ladder whose LLC holds up to its reported size: its memory level lies beyond it, nothing said.
    const CpuLatencyLadder normal = cpu_latency_ladder(latency_record("numa0", "numa0", 100));
    EXPECT_FALSE(normal.llc_window_reads_memory);
}

TEST(CpuFacts, MatricesHaveARowPerCoresNodeAndAColumnPerMemoryNode) {
    Record mix;
    mix.method = "cpu-bandwidth-mix";
    mix.src = "numa0";
    mix.dst = "numa2";  // memory-only
    for (const char* m : {"read", "1:1"}) {
        Point p = point(1024 * MiB, 1024 * MiB / 10e9, 1024 * MiB / 11e9);
        p.axes["mix"] = m;
        mix.points.push_back(p);
    }
    Record loaded;
    loaded.method = "cpu-loaded-latency";
    loaded.src = loaded.dst = "numa0";
    for (int n : {0, 1, 3}) {
        Point p = point(1024 * MiB, 1e-3, 1e-3);
        p.metrics["latency_ns"] = {100.0 + 50 * n, "ns"};
        p.metrics["load_gbps"] = {10.0 * n, "GB/s"};
        p.metrics["load_workers"] = {static_cast<double>(n), "count"};
        loaded.points.push_back(p);
    }
    const std::vector<Record> records{latency_record("numa0", "numa0", 100), latency_record("numa0", "numa2", 300),
                                      latency_record("numa1", "numa0", 180), mix, loaded};
    const NodeMatrix lat = cpu_latency_matrix(records);
    EXPECT_EQ(lat.rows, (std::vector<std::string>{"numa0", "numa1"}));
    EXPECT_EQ(lat.cols, (std::vector<std::string>{"numa0", "numa2"}));
    EXPECT_EQ(lat.cells.at({"numa0", "numa2"}), 300);
    EXPECT_EQ(lat.cells.count({"numa1", "numa2"}), 0u);
    const auto mixes = cpu_mix_matrices(records);
    ASSERT_EQ(mixes.size(), 2u);
    EXPECT_NEAR(mixes.at("1:1").cells.at({"numa0", "numa2"}), 10, 1e-9);
    const auto curves = cpu_loaded_latency(records);
    ASSERT_EQ(curves.size(), 1u);
    ASSERT_EQ(curves[0].points.size(), 3u);
    EXPECT_EQ(curves[0].points[2].load_workers, 3u);
    EXPECT_EQ(curves[0].points[2].latency_ns, 250);
    // Latency and mix records are the CPU section's, not size curves of the main table.
    EXPECT_TRUE(is_cpu_section_method("cpu-latency"));
    EXPECT_TRUE(is_cpu_section_method("cpu-bandwidth-mix"));
    EXPECT_FALSE(is_cpu_section_method("cpu-copy"));
    EXPECT_TRUE(is_cpu_bandwidth_method("cpu-triad"));
    EXPECT_FALSE(is_cpu_bandwidth_method("memcpy-h2d"));
}

// A guest whose hwloc has no L3 under its package (nvidia-h200-x4): the
// record's own context.caches (sysfs at run time) gives the size, not the
// 64 MiB assumption.
TEST(CpuFacts, TheRecordsOwnCacheSizesStandInForATopologyWithoutThem) {
    Record r = copy_record();
    const Graph none;
    const auto assumed = relevant_cache(r, nullptr, &none);
    ASSERT_TRUE(assumed);
    EXPECT_EQ(assumed->bytes, 64 * MiB);
    EXPECT_NE(assumed->name.find("assumed"), std::string::npos);
    r.context["caches"] = {{"l3_bytes", 300 * MiB}, {"llc_bytes", 300 * MiB}};
    const auto read = relevant_cache(r, nullptr, &none);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->bytes, 300 * MiB);
    EXPECT_EQ(read->name, "CPU last-level cache");
}
