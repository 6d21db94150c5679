// summary's line on the run's host read probe (meta.run.host_read): the
// range of the visits, steady or moved, a skipped probe, and files that say
// nothing or something malformed.
#include <gtest/gtest.h>

#include "analyze/host_read.hpp"

using namespace hwcomm::analyze;
using nlohmann::json;

namespace {

json meta_with(const json& host_read) { return {{"run", {{"host_read", host_read}}}}; }

json probe(const std::vector<double>& rates) {
    json visits = json::array();
    for (std::size_t i = 0; i < rates.size(); ++i) visits.push_back({{"t_s", 2.0 * i}, {"gbps", rates[i]}});
    return {{"numa", 0}, {"bytes", 600 << 20}, {"threads", 16}, {"reads_per_visit", 3}, {"visits", visits}};
}

}  // namespace

TEST(HostRead, TheRangeIsOverTheVisitsWithTheirMedian) {
    const auto r = host_read_range(meta_with(probe({90, 76, 88, 91, 87})));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->visits, 5u);
    EXPECT_DOUBLE_EQ(r->low_gbps, 76);
    EXPECT_DOUBLE_EQ(r->high_gbps, 91);
    EXPECT_DOUBLE_EQ(r->median_gbps, 88);
    EXPECT_DOUBLE_EQ(r->span_s, 8);
    EXPECT_EQ(r->bytes, std::uint64_t{600} << 20);
    EXPECT_EQ(r->threads, 16u);
    EXPECT_NEAR(r->spread(), 15.0 / 88, 1e-12);
    // An even count: the median is the mean of the middle two.
    EXPECT_DOUBLE_EQ(host_read_range(meta_with(probe({10, 20, 30, 40})))->median_gbps, 25);
}

TEST(HostRead, SummarySaysWhetherTheHostMoved) {
    const std::string moved = format_host_read(meta_with(probe({90, 76, 88, 91, 87})));
    EXPECT_NE(moved.find("5 visits over 8.0 s, 600 MiB by 16 threads): 76.0-91.0 GB/s, median 88.0, 17% apart"),
              std::string::npos)
        << moved;
    EXPECT_NE(moved.find("moved while this run measured"), std::string::npos) << moved;
    const std::string steady = format_host_read(meta_with(probe({90, 89, 91, 90})));
    EXPECT_NE(steady.find("2% apart: steady"), std::string::npos) << steady;
    EXPECT_EQ(steady.find("moved"), std::string::npos) << steady;
    const std::string once = format_host_read(meta_with(probe({90})));
    EXPECT_NE(once.find("(1 visit over 0.0 s, 600 MiB by 16 threads): 90.0 GB/s"), std::string::npos) << once;
    EXPECT_EQ(format_host_read(meta_with({{"skipped", "no NUMA node has cores"}})),
              "host memory read between records: not probed (no NUMA node has cores)\n");
}

TEST(HostRead, FilesWithoutItOrWithMalformedPartsSayNothingAndNeverThrow) {
    for (const json& meta : {json(), json::array(), json{{"run", 3}}, json{{"run", json::object()}},
                             meta_with(7), meta_with(json::object()), meta_with({{"visits", "many"}}),
                             meta_with({{"visits", json::array({1, "x", json::array(), json{{"gbps", "fast"}},
                                                                json{{"gbps", -5}}, json{{"gbps", 0}}})}}),
                             meta_with({{"skipped", 42}})}) {
        EXPECT_FALSE(host_read_range(meta)) << meta;
        EXPECT_EQ(format_host_read(meta), "") << meta;
    }
    // Malformed visits beside good ones are left out; odd sizes and counts are not said.
    json mixed = probe({50, 60});
    mixed["visits"].push_back({{"gbps", "x"}, {"t_s", 9}});
    mixed["visits"].push_back({{"t_s", "late"}, {"gbps", 55}});
    mixed["bytes"] = -1;
    mixed["threads"] = "all";
    const auto r = host_read_range(meta_with(mixed));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->visits, 3u);
    EXPECT_EQ(r->bytes, 0u);
    EXPECT_EQ(r->threads, 0u);
    EXPECT_DOUBLE_EQ(r->span_s, 2);
    EXPECT_NE(format_host_read(meta_with(mixed)).find("(3 visits over 2.0 s): 50.0-60.0 GB/s"), std::string::npos);
}
