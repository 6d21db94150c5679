// Nsight Compute's CSV report as hwcomm gpumem --ncu reads it.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "methods/gpumem/ncu_csv.hpp"

using namespace hwcomm;
using namespace hwcomm::gpumem;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(HWCOMM_FIXTURES) + "/ncu/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST(NcuCsv, KernelsComeInIdOrderWithTheirMetricsAndGroupedDigitsRead) {
    const auto kernels = parse_ncu_csv(fixture("synthetic-stride.csv"));
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[0].id, 0);
    EXPECT_DOUBLE_EQ(kernels[0].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 33554432.0);
    EXPECT_DOUBLE_EQ(kernels[0].metrics.at("dram__sectors_read.sum"), 33570112.0);
    EXPECT_DOUBLE_EQ(kernels[1].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 67108864.0);
    EXPECT_EQ(kernels[2].metrics.size(), 1u);
    EXPECT_NE(kernels[2].name.find("a \"quoted\" name"), std::string::npos) << kernels[2].name;
}

TEST(NcuCsv, QuotedCommasStayInTheirField) {
    const auto f = split_csv_line("\"a\",\"b,c\",d,\"\"");
    ASSERT_EQ(f.size(), 4u);
    EXPECT_EQ(f[1], "b,c");
    EXPECT_EQ(f[2], "d");
    EXPECT_EQ(f[3], "");
}

TEST(NcuCsv, AReportWithoutKernelsOrWithABadValueIsRefused) {
    EXPECT_THROW(parse_ncu_csv("==PROF== No kernels were profiled.\n"), MeasurementError);
    EXPECT_THROW(parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Value\"\n"), MeasurementError);  // no Metric Name
    EXPECT_THROW(parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"0\",\"k\",\"m\",\"n/a\"\n"),
                 MeasurementError);
    EXPECT_THROW(parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"0\",\"k\"\n"), MeasurementError);
}

TEST(NcuCsv, ARealReportFromAnH100GivesOneKernelPerLaunchWithTheTheoreticalSectors) {
    const auto kernels = parse_ncu_csv(fixture("h100-stride.csv"));
    ASSERT_EQ(kernels.size(), 3u);  // cases 4:1, 4:8, 16:2 of 1 GiB
    const char* l1 = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    EXPECT_DOUBLE_EQ(kernels[0].metrics.at(l1), 33554432.0);   // 2^28 floats / 32 x 4 sectors
    EXPECT_DOUBLE_EQ(kernels[1].metrics.at(l1), 268435456.0);  // 8x at stride 8
    EXPECT_DOUBLE_EQ(kernels[2].metrics.at(l1), 67108864.0);   // float4 stride 2: 2x
    EXPECT_NE(kernels[2].name.find("strided_kernel<float4>"), std::string::npos);
}
