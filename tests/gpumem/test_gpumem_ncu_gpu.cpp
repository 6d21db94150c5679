// hwcomm gpumem --ncu on a real GPU (label gpu): Nsight Compute's count of the
// 32-byte sectors the stride kernels request equals the theory at every
// stride, for 4- and 16-byte elements (issue 9, item 4).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

using namespace hwcomm::test;

TEST(GpumemNcuGpu, NcuCountsTheTheoreticalSectorsAtEveryStride) {
    Scratch s("gpumem-ncu-gpu");
    const Result r = run_hwcomm(s, "gpumem --ncu --filter method=gpumem-stride --filter src=gpu0 --min-size 1G "
                                   "--max-size 1G -o r.json");
    if (r.code == 2 && r.err.find("nothing to measure") != std::string::npos) GTEST_SKIP() << "no CUDA GPU";
    ASSERT_EQ(r.code, 0) << r.err;
    std::cout << r.out;
    std::ifstream in(s / "r.json");
    const auto file = nlohmann::json::parse(in);
    int checked = 0;
    for (const auto& rec : file.at("records")) {
        ASSERT_EQ(rec.at("method").get<std::string>(), "gpumem-stride");
        const auto& ncu = rec.at("context").at("kernel").at("ncu");
        if (ncu.is_string()) GTEST_SKIP() << "ncu: " << ncu.get<std::string>();
        for (const auto& p : rec.at("points")) {
            const double theory = p.at("metrics").at("sectors_theory").at("value").get<double>();
            const double counted = p.at("metrics").at("sectors_ncu").at("value").get<double>();
            EXPECT_LE(std::abs(counted / theory - 1), 0.01) << p.at("axes").dump() << ": " << counted << " vs " << theory;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 16);  // 2 element sizes x 8 strides
}
