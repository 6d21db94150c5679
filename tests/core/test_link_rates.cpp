#include <gtest/gtest.h>

#include "core/link_rates.hpp"

using namespace hwcomm;

TEST(LinkRates, PcieGen5x16Is63GBps) { EXPECT_NEAR(pcie_link_gbps(5, 16), 63.0, 0.05); }
TEST(LinkRates, PcieGen3x16IsAbout15_75GBps) { EXPECT_NEAR(pcie_link_gbps(3, 16), 15.75, 0.01); }
TEST(LinkRates, GenerationFromTransferRate) {
    EXPECT_EQ(pcie_generation_from_gts(32.0), 5);
    EXPECT_EQ(pcie_generation_from_gts(8.0), 3);
    EXPECT_EQ(pcie_generation_from_gts(2.5), 1);
    EXPECT_EQ(pcie_generation_from_gts(3.3), 0);
}
TEST(LinkRates, NvmlEnumSixIsNvLink4At26_56PerLink) {
    EXPECT_EQ(nvlink_version_from_nvml(6), "4.0");
    EXPECT_EQ(nvlink_version_from_nvml(4), "3.0");
    EXPECT_EQ(nvlink_version_from_nvml(1), "1.0");
    EXPECT_NEAR(nvlink_link_gbps("4.0") * 18, 478.1, 0.1);
    EXPECT_DOUBLE_EQ(nvlink_link_gbps("1.0") * 2, 40.0);
}
