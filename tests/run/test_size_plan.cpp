// Which sizes a full sweep's ladder may add between its octaves
// (run/size_plan.hpp): third-octave sizes for a curve with cache edges,
// none for disk-read, whose three io modes share the first one's ladder.
#include <gtest/gtest.h>

#include <memory>

#include "curve_method.hpp"
#include "run/size_plan.hpp"

using namespace hwcomm;

namespace {

RunOptions sizes_4k_to_512m() {
    RunOptions o;
    SweepOptions s;
    s.min_bytes = std::uint64_t{4} << 10;
    s.max_bytes = std::uint64_t{512} << 20;
    o.sweep = s;
    o.sizes = sweep_sizes(s);
    return o;
}

test::CurveMethod named(const std::string& name) {
    return test::CurveMethod(name, [](std::size_t) -> std::unique_ptr<TransferSession> { return nullptr; });
}

}  // namespace

TEST(SizePlan, ACpuCurveMayRefineBetweenOctavesADiskLadderMeasuresOctavesOnly) {
    const RunOptions o = sizes_4k_to_512m();
    const SizePlan cpu = full_size_plan(named("cpu-read"), o);
    const SizePlan disk = full_size_plan(named("disk-read"), o);
    EXPECT_TRUE(cpu.ladder);
    EXPECT_TRUE(disk.ladder);
    EXPECT_EQ(cpu.sizes, disk.sizes);
    EXPECT_EQ(disk.sizes.size(), 18u);            // 4 KiB .. 512 MiB, one per octave
    EXPECT_EQ(cpu.intermediates.size(), 2u * 17);  // two third-octave sizes in each of the 17 octaves
    EXPECT_TRUE(disk.intermediates.empty());
}
