// Which sizes a full sweep's ladder may add between its octaves
// (run/size_plan.hpp): third-octave sizes for a curve with cache edges (a
// host cache: at any size; a GPU path: up to 256 MiB), none for disk-read,
// whose three io modes share the first one's ladder.
#include <gtest/gtest.h>

#include <memory>

#include "curve_method.hpp"
#include "run/size_plan.hpp"

using namespace hwcomm;

namespace {

RunOptions sizes_4k_to(std::uint64_t max_bytes) {
    RunOptions o;
    SweepOptions s;
    s.min_bytes = std::uint64_t{4} << 10;
    s.max_bytes = max_bytes;
    o.sweep = s;
    o.sizes = sweep_sizes(s);
    return o;
}

test::CurveMethod named(const std::string& name) {
    return test::CurveMethod(name, [](std::size_t) -> std::unique_ptr<TransferSession> { return nullptr; });
}

}  // namespace

TEST(SizePlan, ACpuCurveMayRefineBetweenOctavesADiskLadderMeasuresOctavesOnly) {
    const RunOptions o = sizes_4k_to(std::uint64_t{512} << 20);
    const SizePlan cpu = full_size_plan(named("cpu-read"), o);
    const SizePlan disk = full_size_plan(named("disk-read"), o);
    EXPECT_TRUE(cpu.ladder);
    EXPECT_TRUE(disk.ladder);
    EXPECT_EQ(cpu.sizes, disk.sizes);
    EXPECT_EQ(disk.sizes.size(), 18u);            // 4 KiB .. 512 MiB, one per octave
    EXPECT_EQ(cpu.intermediates.size(), 2u * 17);  // two third-octave sizes in each of the 17 octaves
    EXPECT_TRUE(disk.intermediates.empty());
}

TEST(SizePlan, AGpuPathRefinesUpTo256MiBAHostMemoryCurveUpToItsLargestSize) {
    const RunOptions o = sizes_4k_to(std::uint64_t{1} << 30);
    const SizePlan cpu = full_size_plan(named("cpu-copy"), o);
    const SizePlan pageable = full_size_plan(named("memcpy-h2d"), o);
    ASSERT_FALSE(cpu.intermediates.empty());
    ASSERT_FALSE(pageable.intermediates.empty());
    EXPECT_GT(cpu.intermediates.back(), std::uint64_t{512} << 20);  // 812 MiB: between 512 MiB and 1 GiB
    EXPECT_LT(pageable.intermediates.back(), kGpuRefineMaxBytes);    // 203 MiB: the last below 256 MiB
    EXPECT_EQ(cpu.intermediates.size(), pageable.intermediates.size() + 4);  // 2 octaves above 256 MiB
    EXPECT_EQ(cpu.sizes, pageable.sizes);
}
