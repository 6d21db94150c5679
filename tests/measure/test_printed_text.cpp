// The one median, byte-size formatter and edge description every printer
// uses (issue 24 item 4), at their edges.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "measure/byte_size.hpp"
#include "measure/link_text.hpp"
#include "measure/statistics.hpp"

using namespace hwcomm;

TEST(OneMedian, EmptyThrowsOddIsTheMiddleEvenTheMeanOfTheTwo) {
    EXPECT_THROW(median_value({}), std::invalid_argument);
    EXPECT_DOUBLE_EQ(median_value({7}), 7);
    EXPECT_DOUBLE_EQ(median_value({3, 1}), 2);
    EXPECT_DOUBLE_EQ(median_value({5, 1, 3}), 3);       // unsorted input
    EXPECT_DOUBLE_EQ(median_value({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median_value({1, 1, 1, 1e9}), 1);  // an outlier moves it not
}

TEST(OneByteFormat, UnitsAtTheirBoundaries) {
    EXPECT_EQ(format_size(0), "0 B");
    EXPECT_EQ(format_size(1023), "1023 B");
    EXPECT_EQ(format_size(1024), "1 KiB");
    EXPECT_EQ(format_size(1536), "1.5 KiB");
    EXPECT_EQ(format_size(64ull << 20), "64 MiB");
    EXPECT_EQ(format_size(std::numeric_limits<std::uint64_t>::max()), "16 EiB");
    EXPECT_EQ(short_size(0), "0");
    EXPECT_EQ(short_size(1536), "1536");
    EXPECT_EQ(short_size(64ull << 10), "64K");
    EXPECT_EQ(short_size(1ull << 30), "1G");
    EXPECT_EQ(short_size(1ull << 50), "1024T");
}

TEST(OneEdgeDescription, LinkAndStateOfEachKind) {
    Edge pcie;
    pcie.kind = EdgeKind::Pcie;
    EXPECT_EQ(describe_edge(pcie, EdgeText::Link), "PCIe link");
    EXPECT_EQ(describe_edge(pcie, EdgeText::State), "PCIe unknown");
    pcie.internal = true;
    EXPECT_EQ(describe_edge(pcie, EdgeText::State), "PCIe (internal)");
    pcie.pcie = PcieLink{};
    pcie.pcie->generation = 3, pcie.pcie->width = 16, pcie.pcie->max_generation = 4, pcie.pcie->max_width = 16;
    pcie.gbps_per_direction = 15.754, pcie.max_gbps_per_direction = 31.508;
    EXPECT_EQ(describe_edge(pcie, EdgeText::Link), "PCIe 3.0 x16");
    EXPECT_EQ(describe_edge(pcie, EdgeText::State), "PCIe Gen3 x16 15.754 GB/s (max Gen4 x16 31.508 GB/s)");

    Edge nvlink;
    nvlink.kind = EdgeKind::NvLink;
    nvlink.nvlink = NvLinkBond{};
    nvlink.nvlink->links = 18;
    nvlink.gbps_per_direction = 478.125;
    EXPECT_EQ(describe_edge(nvlink, EdgeText::Link), "NVLink ? x18");  // no version known
    nvlink.nvlink->version = "4.0";
    EXPECT_EQ(describe_edge(nvlink, EdgeText::Link), "NVLink 4.0 x18");
    EXPECT_EQ(describe_edge(nvlink, EdgeText::State), "NVLink 4.0 x18 478.125 GB/s");

    Edge smp;
    smp.kind = EdgeKind::Smp;
    smp.smp_distance = 20;
    EXPECT_EQ(describe_edge(smp, EdgeText::State), "SMP interconnect distance 20");
    EXPECT_EQ(describe_edge(smp, EdgeText::Link), std::string(to_string(EdgeKind::Smp)) + " link");
    EXPECT_EQ(format_rate(0), "unknown");
    EXPECT_EQ(format_gbps(15.75), "15.75");
}
