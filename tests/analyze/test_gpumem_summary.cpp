// The gpumem-* records' own summary (src/analyze/gpumem_facts, gpumem_summary)
// on the 2x H200 example (docs/examples/h200x2/gpumem.json.gz), and disk-read's
// cache flag decided by the page cache the record says it dropped.
#include <gtest/gtest.h>

#include <sstream>

#include "analyze/curve_metrics.hpp"
#include "analyze/gpumem_facts.hpp"
#include "analyze/gpumem_summary.hpp"
#include "analyze/study.hpp"
#include "io/results_file.hpp"
#include "catalog/method_catalog.hpp"

using namespace hwcomm;
using namespace hwcomm::analyze;

namespace {

// A record's curve metrics with its method's built-in catalog row, no topology.
CurveMetrics metrics_of(const Record& r) { return curve_metrics(r, builtin_catalog().find(r.method), nullptr); }

const ResultsFile& gpumem_example() {
    static const ResultsFile file = load_results_file(std::string(HWCOMM_DOCS) + "/examples/h200x2/gpumem.json.gz");
    return file;
}

const Record& record_of(const std::string& method, const std::string& memory = "") {
    for (const Record& r : gpumem_example().records)
        if (r.method == method && (memory.empty() || r.params.at("memory") == memory)) return r;
    throw std::runtime_error("no record " + method + " " + memory);
}

const OccupancySeries& series_of(const OccupancyFacts& f, int element, int ilp) {
    for (const auto& s : f.series)
        if (s.element_bytes == element && s.ilp == ilp) return s;
    throw std::runtime_error("no series");
}

Point point(std::uint64_t bytes, double gbps, std::optional<double> cached) {
    Point p;
    p.bytes = bytes;
    p.bandwidth_gbps = gbps;
    p.bytes_per_rep = static_cast<double>(bytes);
    p.stop_reason = "converged";
    p.stats.n = 5;
    if (cached) p.metrics["cached_bytes_at_start"] = {*cached, "bytes"};
    return p;
}

// 4 KiB reads beat the 1.9 GB/s plateau that every size from 64 MiB reaches.
Record disk_read(std::optional<double> cached_at_best) {
    Record r;
    r.method = "disk-read", r.src = "disk:vda", r.dst = "numa0";
    r.points.push_back(point(4096, 6.0, cached_at_best));
    for (std::uint64_t b = 8192; b <= (256u << 20); b *= 2) r.points.push_back(point(b, b >= (64u << 20) ? 1.9 : 1.0, 0.0));
    return r;
}

}  // namespace

TEST(GpumemSummary, OccupancyPeakAndWhereLittlesLawSaysBandwidthBound) {
    const OccupancyFacts f = occupancy_facts(record_of("gpumem-occupancy"));
    ASSERT_EQ(f.series.size(), 9u);  // 3 element sizes x 3 ILP
    EXPECT_NEAR(f.peak_gbps, 3711.8, 0.1);
    EXPECT_EQ(f.peak_warps_per_sm, 16);
    EXPECT_EQ(f.peak_ilp, 4);
    EXPECT_EQ(f.peak_element_bytes, 16);
    EXPECT_FALSE(f.peak_latency_bound);
    ASSERT_TRUE(f.theoretical_gbps && f.latency_ns);
    EXPECT_NEAR(*f.theoretical_gbps, 4814.304, 1e-3);
    EXPECT_NEAR(*f.latency_ns, 343.86, 0.01);
    // float x 1 stays latency-bound up to 64 warps/SM; float4 x 4 is bandwidth-bound from 8.
    EXPECT_FALSE(first_bandwidth_bound(series_of(f, 4, 1)));
    EXPECT_EQ(first_bandwidth_bound(series_of(f, 16, 4)), 8);
    EXPECT_EQ(first_bandwidth_bound(series_of(f, 8, 2)), 32);
    EXPECT_EQ(series_of(f, 4, 1).points.size(), 9u);
    EXPECT_NEAR(*series_of(f, 4, 1).points.front().bound_gbps, 49.14, 0.01);
}

TEST(GpumemSummary, StrideTimelineAndLatencyLadder) {
    const auto strides = stride_facts(record_of("gpumem-stride"));
    ASSERT_EQ(strides.size(), 2u);
    EXPECT_EQ(strides[0].element_bytes, 4);
    ASSERT_EQ(strides[0].points.size(), 8u);
    EXPECT_EQ(strides[0].points.front().stride, 1);
    EXPECT_EQ(strides[0].points.back().stride, 128);
    EXPECT_EQ(strides[0].points.front().sectors_per_request_theory, 4.0);
    EXPECT_EQ(strides[0].points.back().sectors_per_request_theory, 32.0);
    EXPECT_EQ(strides[1].points.front().sectors_per_request_theory, 16.0);
    EXPECT_NEAR(strides[0].points.front().gbps, 1788.0, 0.1);
    EXPECT_FALSE(strides[0].points.front().sectors_per_request_ncu);

    const auto timeline = timeline_facts(record_of("gpumem-timeline"));
    ASSERT_EQ(timeline.size(), 10u);
    EXPECT_EQ(timeline[0].element_bytes, 4);
    EXPECT_EQ(timeline[0].warps_per_block, 2);
    EXPECT_EQ(timeline[0].median_cycles, 841.0);
    EXPECT_NEAR(*timeline[0].median_ns, 425.26, 0.01);
    EXPECT_EQ(timeline[3].block_gap_cycles, 331.0);  // float, 16 warps per block
    EXPECT_NEAR(*timeline[3].block_gap_ns, 331.0 / 1974.2 * 1e3, 0.1);

    const LatencyLadder local = latency_ladder(record_of("gpumem-latency", "local"));
    EXPECT_EQ(local.l2_bytes, 60u << 20);  // from the record's context
    EXPECT_EQ(local.ns_by_working_set.size(), 10u);
    EXPECT_NEAR(*local.smallest_ns, (21.72 + 22.38) / 2, 0.05);  // 4 and 16 KiB
    EXPECT_NEAR(*local.l2_window_ns, 144.1, 0.05);               // 1-16 MiB
    EXPECT_NEAR(*local.beyond_l2_ns, (334.2 + 345.1) / 2, 0.1);  // 256 MiB and 1 GiB
    const LatencyLadder peer = latency_ladder(record_of("gpumem-latency", "peer"));
    EXPECT_NEAR(*peer.l2_window_ns, 852.9, 0.1);
    EXPECT_GT(*peer.beyond_l2_ns, *local.beyond_l2_ns);
}

// Host and peer chases from several SMs (docs/gpumem.md "Which SM chases"):
// the ladder keeps the mean as its figure and states the nearest and farthest
// SM over the L2 window; a one-SM record (the example's) states none.
TEST(GpumemSummary, ARemoteChaseOverSeveralSmsStatesItsNearestAndFarthestSm) {
    Record r = record_of("gpumem-latency", "peer");
    EXPECT_FALSE(latency_ladder(r).nearest_sm_ns);
    EXPECT_EQ(format_gpumem_summary({r}, builtin_catalog()).find("by the SM that chases"), std::string::npos);
    for (Point& p : r.points) {
        p.metrics["chase_sms"] = {p.bytes >= (1u << 20) ? 16.0 : 1.0, "count"};
        if (p.bytes < (1u << 20)) continue;
        p.metrics["latency_ns_nearest_sm"] = {795.0, "ns"};
        p.metrics["latency_ns_farthest_sm"] = {p.bytes >= (256u << 20) ? 1000.0 : 858.0, "ns"};
    }
    const LatencyLadder l = latency_ladder(r);
    ASSERT_TRUE(l.nearest_sm_ns && l.farthest_sm_ns);
    EXPECT_DOUBLE_EQ(*l.nearest_sm_ns, 795.0);
    EXPECT_DOUBLE_EQ(*l.farthest_sm_ns, 858.0);  // the window 1 MiB .. L2 / 2 only
    EXPECT_EQ(l.chase_sms, 16u);
    const std::string text = format_gpumem_summary({r}, builtin_catalog());
    EXPECT_NE(text.find("up to 16 SMs a sample"), std::string::npos) << text;
    EXPECT_NE(text.find("nearest 795.0 ns, farthest 858.0 ns, 7.9% apart"), std::string::npos) << text;
}

TEST(GpumemSummary, NcuSectorsBecomeSectorsPerRequest) {
    Record r = record_of("gpumem-stride");
    // 1 GiB of floats: 2^28 elements, 2^23 warp requests; 4 sectors each at stride 1.
    r.points[0].metrics["sectors_ncu"] = {4.0 * (1 << 23), "sectors"};
    const auto strides = stride_facts(r);
    ASSERT_TRUE(strides[0].points.front().sectors_per_request_ncu);
    EXPECT_DOUBLE_EQ(*strides[0].points.front().sectors_per_request_ncu, 4.0);
    EXPECT_NE(format_gpumem_summary({r}, builtin_catalog()).find("as Nsight Compute counted them"), std::string::npos);
}

TEST(GpumemSummary, TextStatesThePeakTheBoundsAndThePlateaus) {
    const std::string text = format_gpumem_summary(gpumem_example().records, builtin_catalog());
    EXPECT_NE(text.find("peak 3711.8 GB/s = 77% of the theoretical DRAM 4814.3 GB/s, at 16 warps/SM, ILP 4, 16 B"),
              std::string::npos) << text;
    EXPECT_NE(text.find("L1 22.1 ns (<= 16 KiB), L2 144.1 ns (1 MiB-30 MiB), DRAM 339.7 ns (>= 240 MiB)"),
              std::string::npos) << text;
    EXPECT_NE(text.find("ncu: not measured"), std::string::npos);
    // No size-curve vocabulary: these records are not bandwidth against size.
    EXPECT_EQ(text.find("large"), std::string::npos);
    EXPECT_EQ(format_gpumem_summary({}, builtin_catalog()), "");
}

TEST(DiskReadCacheFlag, SmallFastPointIsCacheResidentOnlyWhenThePageCacheHeldIt) {
    // The page cache was dropped (0 bytes cached at start): a CPU cache that would
    // fit the destination buffer does not explain the 4 KiB point.
    const CurveMetrics dropped = metrics_of(disk_read(0.0));
    ASSERT_TRUE(dropped.best);
    EXPECT_EQ(dropped.best->bytes, 4096u);
    EXPECT_FALSE(dropped.best->cache_resident);
    EXPECT_EQ(dropped.best->cache, "page cache");
    // The file's 4 KiB were cached when the samples started: now the cache explains it.
    EXPECT_TRUE(metrics_of(disk_read(4096.0)).best->cache_resident);
    // The same points from a host-memory method are cache-resident by the host rule.
    Record host = disk_read(0.0);
    host.method = "cpu-read", host.src = "numa0";
    EXPECT_TRUE(metrics_of(host).best->cache_resident);
}

TEST(GpumemSummary, AnalysisEfficiencyLeavesPointerChasesOut) {
    // 8 bytes per dependent load over NVLink or PCIe is no use of the link's bandwidth.
    const Analysis a = analyze_results({{"gpumem.json.gz", gpumem_example()}});
    EXPECT_TRUE(a.efficiency.empty());
}

TEST(GpumemSummary, FitsIn120Columns) {
    std::istringstream lines(format_gpumem_summary(gpumem_example().records, builtin_catalog()));
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
}

// gpumem-loaded-latency (issue 22 item 6): the loaded latency of each level
// beside the unloaded one of the same record, as a ratio, with the loads' U.
TEST(GpumemSummary, LoadedLatencyIsPrintedAsARatioToTheUnloadedChaseWithTheLoadsRate) {
    Record r;
    r.method = "gpumem-loaded-latency", r.src = "gpu0", r.dst = "numa0";
    r.params = {{"memory", "host-pinned"}};
    auto chase = [](std::uint64_t bytes, const char* load, double ns, double load_gbps) {
        Point p;
        p.bytes = bytes;
        p.axes["load"] = load;
        p.metrics["latency_ns"] = {ns, "ns"};
        if (load_gbps > 0) p.extras["load_gbps"] = load_gbps;
        return p;
    };
    for (std::uint64_t b : {std::uint64_t{64} << 20, std::uint64_t{256} << 20}) {
        r.points.push_back(chase(b, "none", 1000, 0));
        r.points.push_back(chase(b, "same", 1500, 52.0));
        r.points.push_back(chase(b, "both", 2000, 98.0));
    }
    const auto levels = loaded_latency(r);
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_EQ(levels[1].load, "same");
    ASSERT_EQ(levels[1].ns_by_working_set.size(), 2u);
    EXPECT_DOUBLE_EQ(levels[1].ns_by_working_set[0].second, 1500);
    EXPECT_TRUE(levels[0].load_gbps_by_working_set.empty());  // unloaded: no U
    const std::string text = format_gpumem_summary({r}, builtin_catalog(), "");
    EXPECT_NE(text.find("gpumem-loaded-latency gpu0->numa0 (host-pinned):"), std::string::npos) << text;
    EXPECT_NE(text.find("at 256 MiB: none 1000 ns; same 1500 ns (1.50x, U 52 GB/s); both 2000 ns (2.00x, U 98 GB/s)"),
              std::string::npos)
        << text;
}
