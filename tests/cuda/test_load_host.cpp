// Host-side tests (no GPU) of the load lanes' arithmetic and of the planning
// of under-load, in-flight and priority on fixture graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "fixture_graphs.hpp"
#include "methods/cuda/lanes/load_window.hpp"
#include "methods/cuda/register.hpp"
#include "methods/group_characterizer.hpp"
#include "run/plan.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

TEST(LoadWindow, CountsTheChunksThatFinishedInsideTheWindow) {
    const std::vector<LoadMark> marks{{4, 1e-3}, {8, 2e-3}, {12, 3e-3}, {16, 4e-3}};
    LoadInWindow w = load_in_window(marks, 2.5e-3);
    EXPECT_EQ(w.chunks, 8u);
    EXPECT_DOUBLE_EQ(w.seconds, 2e-3);
    EXPECT_TRUE(w.covered);
    w = load_in_window(marks, 5e-3);  // the load ended before the window closed
    EXPECT_EQ(w.chunks, 16u);
    EXPECT_FALSE(w.covered);
    w = load_in_window(marks, 0.5e-3);  // no mark inside: nothing to count, still covered
    EXPECT_EQ(w.chunks, 0u);
    EXPECT_TRUE(w.covered);
}

TEST(LoadWindow, PlansChunksToOutlastTheWindowWithinTheQueueCap) {
    EXPECT_EQ(load_chunks_for(10e-3, 1e-3), 16u);  // 1.5 x 10 + 1
    EXPECT_EQ(load_chunks_for(1e-6, 1e-3), 2u);
    EXPECT_EQ(load_chunks_for(10.0, 1e-3), kMaxLoadChunks);
    EXPECT_EQ(load_chunks_for(0, 1e-3), kMaxLoadChunks);
}

TEST(LoadMethods, UnderLoadScenariosOnTheTwoSocketGraph) {
    const Graph g = test::two_socket_four_gpus();
    Registry r;
    register_cuda_methods(r);
    const auto* m = dynamic_cast<const GroupCharacterizer*>(r.find("under-load"));
    ASSERT_NE(m, nullptr);
    const auto sets = m->endpoint_sets(g);
    std::size_t alone = 0, loaded = 0, max_loads = 0;
    std::set<std::string> keys;
    for (const auto& s : sets) {
        const auto params = m->set_parameter_sets(g, s, {});
        ASSERT_EQ(params.size(), 1u);
        EXPECT_TRUE(keys.insert(record_key("under-load", s.src_id, s.dst_id, params[0])).second) << s.note;
        const std::size_t loads = std::stoul(params[0].at("loads"));
        (loads ? loaded : alone) += 1;
        max_loads = std::max(max_loads, loads);
    }
    // Per direction, 6 routes alone: numa0 and numa1 each to gpu0 (gpu1 is
    // its twin), gpu2 and gpu3 (its PCIe 4.0 x8 link sets it apart); the 4
    // NVLink peer routes share nothing (one direct link each, each way its own).
    EXPECT_EQ(alone, 12u);
    EXPECT_EQ(max_loads, 3u);  // a GPU with the 3 others of its NUMA node's host side
    // 38 loaded scenarios per direction: 18 on the two host sides (3 route
    // classes each, with 1, 2 and 3 loads), 17 new on the two host bridges
    // (their 4 routes in another order), 3 new on gpu0's and gpu3's own links.
    EXPECT_EQ(loaded, 76u);
}

// Copy engines ignore stream priorities (issue 22): the default plan measures
// priority on copy kernels only; the copy engines only when asked.
TEST(LoadMethods, PriorityMeasuresCopyKernelsByDefaultAndTheCopyEnginesWhenAsked) {
    const Graph g = test::two_socket_four_gpus();
    Registry r;
    register_cuda_methods(r);
    const Characterizer* m = r.find("priority");
    ASSERT_NE(m, nullptr);
    const Vertex& numa = *g.find("numa0");
    const Vertex& gpu = *g.find("gpu0");
    ASSERT_TRUE(m->applicable(g, numa, gpu).ok);
    auto engines_of = [&](const char* asked) {
        MethodOptions o;
        if (asked) o.values.set("priority-engines", asked);
        std::vector<std::string> out;
        for (const ParamSet& p : m->parameter_sets(g, numa, gpu, o)) out.push_back(p.at("engine"));
        return out;
    };
    EXPECT_EQ(engines_of(nullptr), std::vector<std::string>{"sm"});
    EXPECT_EQ(engines_of("sm"), std::vector<std::string>{"sm"});
    EXPECT_EQ(engines_of("ce"), std::vector<std::string>{"ce"});
    EXPECT_EQ(engines_of("both"), (std::vector<std::string>{"sm", "ce"}));
    ASSERT_EQ(m->options().size(), 1u);
    EXPECT_EQ(m->options()[0].name, "priority-engines");
    EXPECT_EQ(m->options()[0].choices, (std::vector<std::string>{"sm", "ce", "both"}));
    // A parameter no plan makes (a hand-edited file) is refused before anything is allocated.
    EXPECT_THROW(m->prepare(g, numa, gpu, {{"engine", "dma"}}, 1 << 20, {}), UsageError);
}
