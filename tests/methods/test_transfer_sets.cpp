// Transfer-set files (hwcomm run --transfers): the format, the checks against
// the fixture machines' graphs and the presets. No GPU: graph logic only.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "catalog/method_params.hpp"
#include "classes/fixture_graphs.hpp"
#include "core/error.hpp"
#include "core/paths.hpp"
#include "methods/transfers/transfer_presets.hpp"
#include "methods/transfers/transfer_set_check.hpp"
#include "model/fit.hpp"

namespace hwcomm {
namespace {

using test::nvml_graph;
using test::xml_graph;

TransferSetMachine any_build() {
    TransferSetMachine m;
    m.cuda = m.tma = true;
    m.free_bytes = graph_memory_bytes;
    return m;
}

// The message of the UsageError `f` throws ("" when it throws none).
template <class F>
std::string usage_error(F&& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

std::vector<ResolvedSet> resolve(const Graph& g, const std::string& text, const TransferSetMachine& m = any_build()) {
    return resolve_transfer_sets(g, parse_transfer_sets(text, "t.csv"), m);
}

std::string resolve_error(const Graph& g, const std::string& text, const TransferSetMachine& m = any_build()) {
    return usage_error([&] { (void)resolve(g, text, m); });
}

// The two H200 of the lent machine with host memory on their node (the NVML
// recording states none).
Graph h200x2() {
    Graph g = nvml_graph("h200x2.json", 8);
    // CUDA's ordinals as on the machine (the recording holds NVML's facts only).
    // and the H200's SM count (NVML does not say it).
    for (int k = 0; Vertex* v = g.find("gpu" + std::to_string(k)); ++k) v->gpu->cuda_ordinal = k, v->gpu->sm_count = 132;
    g.find("numa0")->numa->memory_bytes = 64ull << 30;
    return g;
}

TEST(TransferSetFile, ReadsSetsInOrderWithHeaderCommentsSizesAndExecutors) {
    const auto f = parse_transfer_sets(
        "set, executor, src, dst, size, host_mem\n"
        "# two GPUs both ways\n"
        "\n"
        "ring, ce, gpu0, gpu1, 256M\r\n"
        "ring, SM:16@gpu1, gpu1, gpu0, 256M\n"
        "host,  cpu:4@numa1 , numa0, numa1, sweep\n"
        "host, ce, numa0, gpu0, , registered\n",
        "t.csv");
    ASSERT_EQ(f.sets.size(), 2u);
    EXPECT_EQ(f.sets[0].name, "ring");
    EXPECT_EQ(f.sets[0].line, 4u);
    EXPECT_EQ(f.sets[0].bytes, 256ull << 20);
    ASSERT_EQ(f.sets[0].transfers.size(), 2u);
    const TransferLine& sm = f.sets[0].transfers[1];
    EXPECT_EQ(sm.executor, TransferExecutor::Sm);
    EXPECT_EQ(sm.units, 16u);
    EXPECT_EQ(sm.at, "gpu1");
    EXPECT_EQ(sm.executor_text(), "sm:16@gpu1");
    EXPECT_EQ(f.sets[1].bytes, 0u);  // the run's sizes
    EXPECT_EQ(f.sets[1].transfers[0].executor, TransferExecutor::Cpu);
    EXPECT_EQ(f.sets[1].transfers[1].host_mem, "registered");
    EXPECT_EQ(f.sets[1].transfers[1].line, 7u);
}

TEST(TransferSetFile, TheCanonicalFormReadsBackTheSameSets) {
    const auto f = parse_transfer_sets("a,ce,gpu0,gpu1,1G\na,sm:8@gpu1,gpu0,gpu1,1G\nb,cpu,numa0,numa0,,\n", "t.csv");
    const auto back = parse_transfer_sets(format_transfer_sets(f), "again");
    ASSERT_EQ(back.sets.size(), f.sets.size());
    for (std::size_t i = 0; i < f.sets.size(); ++i) {
        EXPECT_EQ(back.sets[i].name, f.sets[i].name);
        EXPECT_EQ(back.sets[i].bytes, f.sets[i].bytes);
        ASSERT_EQ(back.sets[i].transfers.size(), f.sets[i].transfers.size());
        for (std::size_t k = 0; k < f.sets[i].transfers.size(); ++k) {
            EXPECT_EQ(back.sets[i].transfers[k].executor_text(), f.sets[i].transfers[k].executor_text());
            EXPECT_EQ(back.sets[i].transfers[k].src, f.sets[i].transfers[k].src);
            EXPECT_EQ(back.sets[i].transfers[k].host_mem, f.sets[i].transfers[k].host_mem);
        }
    }
}

TEST(TransferSetFile, EachSyntaxErrorIsOneLineNamingFileAndLine) {
    const auto error = [](const std::string& text) { return usage_error([&] { (void)parse_transfer_sets(text, "t.csv"); }); };
    EXPECT_EQ(error("a,ce,gpu0,gpu1\n"), "t.csv:1: 4 fields; expected: set, executor, src, dst, size[, host_mem]");
    EXPECT_EQ(error("# c\na,dma,gpu0,gpu1,1G\n").rfind("t.csv:2: unknown executor 'dma'", 0), 0u);
    EXPECT_EQ(error("a,ce,gpu0,gpu1,lots\n").rfind("t.csv:1: size 'lots' is not a byte size", 0), 0u);
    EXPECT_EQ(error("a,ce,gpu0,gpu1,0\n"), "t.csv:1: size 0: a transfer moves at least one byte");
    EXPECT_EQ(error("a,ce:4,gpu0,gpu1,1G\n").rfind("t.csv:1: executor 'ce:4': copy engines take no count", 0), 0u);
    EXPECT_EQ(error("a,sm:0,gpu0,gpu1,1G\n").rfind("t.csv:1: executor count ':0'", 0), 0u);
    EXPECT_EQ(error("a b,ce,gpu0,gpu1,1G\n").rfind("t.csv:1: set name 'a b' may hold", 0), 0u);
    EXPECT_EQ(error("a,ce,gpu0,gpu1,1G\na,ce,gpu1,gpu0,2G\n").rfind("t.csv:2: set 'a' moves 1 GiB from line 1 and 2 GiB", 0), 0u);
    EXPECT_EQ(error("a,ce,gpu0,gpu1,1G\nb,ce,gpu1,gpu0,1G\na,ce,gpu1,gpu0,1G\n").rfind("t.csv:3: set 'a' began at line 1", 0), 0u);
    EXPECT_EQ(error(std::string("a,ce,gpu0,gpu1,1G\na,ce,gp\x01u1,gpu0,1G\n")), "t.csv:2: a byte that is not printable ASCII");
    EXPECT_EQ(error("# nothing\n\n"), "t.csv: no transfer (expected lines 'set, executor, src, dst, size')");
    std::string many;
    for (std::size_t i = 0; i <= kMaxTransfersPerSet; ++i) many += "a,ce,gpu0,gpu1,1G\n";
    EXPECT_EQ(error(many).rfind("t.csv:" + std::to_string(kMaxTransfersPerSet + 1) + ": set 'a' has more than", 0), 0u);
}

TEST(TransferSetCheck, LanesRecordExecutorPeerInitiatorAndHostMemory) {
    const Graph g = h200x2();
    const auto sets = resolve(g, "x,ce,numa0,gpu0,64M\nx,sm@gpu1,gpu0,gpu1,64M\nx,ce,gpu1,numa0,64M,wc\nx,cpu:2,numa0,numa0,64M\n");
    ASSERT_EQ(sets.size(), 1u);
    const ResolvedSet& s = sets[0];
    EXPECT_EQ(s.src_id, "numa0+gpu0+gpu1");
    EXPECT_EQ(s.dst_id, "numa0+gpu0+gpu1");
    ASSERT_EQ(s.transfers.size(), 4u);
    const LaneSpec h2d = s.transfers[0].lane(), d2d = s.transfers[1].lane(), d2h = s.transfers[2].lane(),
                   cpu = s.transfers[3].lane();
    EXPECT_EQ(h2d.method, "transfer-set");
    EXPECT_EQ(h2d.params, (std::map<std::string, std::string>{{"executor", "ce"}, {"host_mem", "pinned"}}));
    EXPECT_EQ(d2d.params, (std::map<std::string, std::string>{
                              {"executor", "sm"}, {"peer", "on"}, {"initiator", "dst"}}));  // through the NVSwitch fabric
    EXPECT_EQ(d2h.params.at("host_mem"), "wc");
    EXPECT_EQ(cpu.params, (std::map<std::string, std::string>{{"executor", "cpu"}, {"units", "2"}, {"workers_numa", "0"}}));
    EXPECT_EQ(s.transfers[1].on->id, "gpu1");
    EXPECT_TRUE(s.needs_gpu());
}

TEST(TransferSetCheck, TwoExecutorsOnOnePairGetLabelsOfTheirOwn) {
    const auto sets = resolve(h200x2(), "x,ce,gpu0,gpu1,1G\nx,sm,gpu0,gpu1,1G\nx,ce,gpu1,gpu0,1G\n");
    std::set<std::string> labels;
    for (const auto& t : sets[0].transfers) labels.insert(t.label);
    EXPECT_EQ(labels, (std::set<std::string>{"gpu0->gpu1/ce", "gpu0->gpu1/sm", "gpu1->gpu0"}));
}

TEST(TransferSetCheck, UnknownOrUnusableEndpointsNameFileAndLine) {
    const Graph g = h200x2();
    EXPECT_EQ(resolve_error(g, "x,ce,gpu0,gpu1,1G\nx,ce,gpu0,gpu9,1G\n"),
              "t.csv:2: unknown destination 'gpu9' (endpoints here: numa0, gpu0, gpu1)");
    const Graph dgx = xml_graph("dgx1.xml");
    const std::string msg = resolve_error(dgx, "x,ce,package0,gpu0,1G\n");
    EXPECT_EQ(msg.rfind("t.csv:1: package0 is a ", 0), 0u) << msg;
    EXPECT_NE(msg.find("not a NUMA node or a GPU"), std::string::npos) << msg;
}

TEST(TransferSetCheck, AnExecutorThatDoesNotApplyToItsPairIsRefused) {
    const Graph g = h200x2();
    EXPECT_EQ(resolve_error(g, "x,cpu,numa0,gpu0,1G\n"),
              "t.csv:1: cpu numa0->gpu0: CPU threads do not address GPU memory; a copy to or from a GPU takes ce, sm "
              "or tma");
    EXPECT_EQ(resolve_error(g, "x,ce,numa0,numa0,1G\n"),
              "t.csv:1: ce numa0->numa0: copy engines and kernels need a GPU end; host to host takes cpu");
    EXPECT_EQ(resolve_error(g, "x,ce@gpu1,numa0,gpu0,1G\n"),
              "t.csv:1: ce@gpu1 numa0->gpu0: '@gpu1': the copy is issued by gpu0, its GPU end");
    EXPECT_EQ(resolve_error(g, "x,ce,numa0,gpu0,1G,pageable\n").rfind(
                  "t.csv:1: ce numa0->gpu0: pageable memory cannot start with the others", 0),
              0u);
    EXPECT_EQ(resolve_error(g, "x,ce,gpu0,gpu1,1G,pinned\n"),
              "t.csv:1: ce gpu0->gpu1: host memory 'pinned' applies to a copy between host and GPU memory");
    EXPECT_EQ(resolve_error(g, "x,sm:500,gpu0,gpu1,1G\n"), "t.csv:1: sm:500 gpu0->gpu1: 500 SMs, but gpu0 has 132");
    TransferSetMachine no_cuda = any_build();
    no_cuda.cuda = false;
    EXPECT_EQ(resolve_error(g, "x,ce,numa0,gpu0,1G\n", no_cuda),
              "t.csv:1: ce numa0->gpu0: this build has no CUDA methods (configured without CUDA)");
    TransferSetMachine no_tma = any_build();
    no_tma.tma = false;
    EXPECT_EQ(resolve_error(g, "x,tma,gpu0,gpu1,1G\n", no_tma), "t.csv:1: tma gpu0->gpu1: this build has no TMA copies");
}

TEST(TransferSetCheck, AKernelBetweenGpusNeedsAPeerPathACopyEngineStages) {
    // The Minsky: two GPUs per socket on NVLink, nothing between the sockets' GPUs.
    const Graph g = xml_graph("power8gpudistances.xml");
    const std::string msg = resolve_error(g, "x,sm,gpu0,gpu2,1G\n");
    EXPECT_EQ(msg.rfind("t.csv:1: sm gpu0->gpu2: a kernel reaches another GPU only with peer access: ", 0), 0u) << msg;
    const auto sets = resolve(g, "x,ce,gpu0,gpu2,1G\n");
    EXPECT_EQ(sets[0].transfers[0].peer, "off");
}

TEST(TransferSetCheck, TmaNeedsSm90) {
    Graph g = h200x2();
    g.find("gpu0")->gpu->cc_major = 8;
    g.find("gpu0")->gpu->cc_minor = 0;
    EXPECT_EQ(resolve_error(g, "x,tma,gpu0,gpu1,1G\n"),
              "t.csv:1: tma gpu0->gpu1: TMA copies need sm_90 or newer; gpu0 is sm_80");
    EXPECT_NO_THROW((void)resolve(g, "x,tma@gpu1,gpu0,gpu1,1G\n"));  // gpu1 (unknown capability) issues it
}

TEST(TransferSetCheck, ATransferTwiceInOneSetIsRefusedWithBothLines) {
    const Graph g = h200x2();
    EXPECT_EQ(resolve_error(g, "x,ce,gpu0,gpu1,1G\nx,ce,gpu1,gpu0,1G\nx,ce@gpu0,gpu0,gpu1,1G\n"),
              "t.csv:3: ce@gpu0 gpu0->gpu1: the same transfer as line 1 of set 'x' (a lane twice; give each lane its "
              "own endpoints or executor)");
    EXPECT_NO_THROW((void)resolve(g, "x,ce,gpu0,gpu1,1G\ny,ce,gpu0,gpu1,1G\n"));  // one per set
}

TEST(TransferSetCheck, SizesBeyondTheMemoryFreeAreRefused) {
    // DGX-1: 16 GB P100s; 90% of it holds one 8 GiB buffer, not two.
    const Graph g = xml_graph("dgx1.xml");
    EXPECT_NO_THROW((void)resolve(g, "x,ce,gpu0,gpu1,8G\n"));
    const std::string msg = resolve_error(g, "x,ce,gpu0,gpu1,8G\nx,ce,gpu2,gpu1,8G\n");
    EXPECT_EQ(msg.rfind("t.csv:2: set 'x' needs 2 buffer(s) of 8 GiB on gpu1 by this line, more than 90% of its", 0), 0u)
        << msg;
    TransferSetMachine unknown = any_build();
    unknown.free_bytes = nullptr;  // nothing known: the sessions size what they can
    EXPECT_NO_THROW((void)resolve(g, "x,ce,gpu0,gpu1,8G\nx,ce,gpu2,gpu1,8G\n", unknown));
}

TEST(TransferPresets, AllToAllTakesDirectLinksOnlyRingAndBisectionEveryGpu) {
    const Graph g = xml_graph("dgx1.xml");
    const auto all = resolve_transfer_sets(g, preset_transfer_sets(g, "preset:all-to-all"), any_build());
    ASSERT_EQ(all.size(), 1u);
    // The hybrid cube mesh: each P100 has NVLinks to 4 others.
    EXPECT_EQ(all[0].transfers.size(), 32u);
    for (const auto& t : all[0].transfers)
        EXPECT_EQ(classify_path(g, t.src->id, t.dst->id).kind, PathClass::NvLink) << t.label;
    const auto ring = resolve_transfer_sets(g, preset_transfer_sets(g, "preset:ring:64M"), any_build());
    ASSERT_EQ(ring[0].transfers.size(), 8u);
    EXPECT_EQ(ring[0].bytes, 64ull << 20);
    EXPECT_EQ(ring[0].transfers.back().label, "gpu7->gpu0");
    EXPECT_EQ(ring[0].transfers[0].line.executor, TransferExecutor::Ce);
    EXPECT_EQ(ring[0].transfers[3].peer, "off");  // gpu3->gpu4: no NVLink, no common PCIe root: staged
    // Kernels need peer access on every ring step: gpu3->gpu4 has none, and the preset says so on its line.
    const std::string sm_ring = usage_error([&] {
        (void)resolve_transfer_sets(g, preset_transfer_sets(g, "preset:ring:sm:64M"), any_build());
    });
    EXPECT_EQ(sm_ring.rfind("preset:ring:sm:64M:5: sm gpu3->gpu4: a kernel reaches another GPU only with peer access", 0),
              0u)
        << sm_ring;
    const auto bisection = resolve_transfer_sets(g, preset_transfer_sets(g, "preset:bisection"), any_build());
    ASSERT_EQ(bisection[0].transfers.size(), 8u);
    EXPECT_EQ(bisection[0].transfers[0].label, "gpu0->gpu4");
    EXPECT_EQ(bisection[0].transfers[4].label, "gpu4->gpu0");
}

TEST(TransferPresets, UnknownNamesOptionsAndMachinesWithoutGpusAreOneLine) {
    const Graph g = xml_graph("dgx1.xml");
    EXPECT_EQ(usage_error([&] { (void)preset_transfer_sets(g, "preset:mesh"); }),
              "--transfers preset:mesh: unknown preset (all-to-all, ring, bisection)");
    EXPECT_EQ(usage_error([&] { (void)preset_transfer_sets(g, "preset:ring:fast"); }),
              "--transfers preset:ring:fast: 'fast' is neither an executor (ce, sm, tma) nor a size (256M)");
    const Graph amd = xml_graph("amd-xgmi.xml");  // AMD GPUs only: none CUDA reaches
    EXPECT_EQ(usage_error([&] { (void)preset_transfer_sets(amd, "preset:ring"); }),
              "--transfers preset:ring: needs two or more CUDA GPUs (0 here)");
    // The Minsky's pairs across sockets have no NVLink: all-to-all keeps the 4 NVLink pairs both ways.
    const Graph minsky = xml_graph("power8gpudistances.xml");
    EXPECT_EQ(preset_transfer_sets(minsky, "preset:all-to-all").sets[0].transfers.size(), 4u);
}

TEST(TransferSetModel, EachLaneStandsForTheSingleCopyOfItsExecutor) {
    const Graph g = h200x2();  // the resolved lanes point into it
    const auto sets = resolve(g,
                              "x,ce,numa0,gpu0,1G,wc\nx,sm,gpu0,numa0,1G\nx,sm,gpu0,gpu1,1G\nx,ce,gpu1,gpu0,1G\n"
                              "x,cpu,numa0,numa0,1G\n");
    std::vector<std::string> solos;
    for (const auto& t : sets[0].transfers) {
        const auto solo = model::solo_equivalent(t.lane());
        ASSERT_TRUE(solo) << t.label;
        solos.push_back(model::transfer_kind(solo->method, solo->params));
    }
    EXPECT_EQ(solos, (std::vector<std::string>{"memcpy-h2d host_mem=wc", "sm-copy-d2h host_mem=registered",
                                               "sm-copy-d2d-push peer=on", "memcpy-peer peer=on", "memcpy"}));
}

}  // namespace
}  // namespace hwcomm
