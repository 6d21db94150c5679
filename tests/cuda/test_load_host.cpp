// Host-side tests (no GPU) of the load lanes' arithmetic and of the planning
// of under-load, in-flight and priority on fixture graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

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
    // 8 host-to-GPU and 8 GPU-to-host routes, each alone once; the 4 NVLink
    // peer routes share nothing (one direct link each, each way its own).
    EXPECT_EQ(alone, 16u);
    EXPECT_EQ(max_loads, 3u);  // a GPU with the 3 others of its NUMA node's host side
    // 52 loaded scenarios per direction: 12 + 12 from the two host sides, 10
    // and 12 new ones over the two host bridges (4 routes each: both nodes to
    // the bridge's 2 GPUs), 6 new ones over the GPUs' own links; the SMP
    // link's pairs repeat earlier ones.
    EXPECT_EQ(loaded, 104u);
}
