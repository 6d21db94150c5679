// Faults of a device during a run, on the engine side (issue 16 item 4),
// without a GPU: fake methods throw the DeviceError a failed CUDA call throws.
// A non-sticky error is one error record and the next record is measured; a
// sticky one (context lost) keeps the points measured before it, ends the GPU
// part with one summary, stores every remaining GPU record as "not measured",
// and the CPU records are still measured. tests/cuda/test_cuda_faults_gpu.cpp
// injects the real faults on a GPU machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "core/device_error.hpp"
#include "core/error.hpp"
#include "io/results_json.hpp"
#include "io/run_state.hpp"
#include "run/device_loss.hpp"
#include "run/engine.hpp"
#include "support/test_catalog.hpp"

using namespace hwcomm;

namespace {

struct Fault {
    enum class At { Nowhere, Prepare, Measure } at = At::Nowhere;
    std::size_t from_bytes = 0;  // At::Measure: sizes from this one fail
    std::string name = "cudaErrorMemoryAllocation";
    int code = 2;
    bool sticky = false;
    std::string unavailable;  // At::Prepare: the machine lacks what the record needs (Unavailable), this reason

    DeviceError error(const std::string& call) const {
        return DeviceError(call + " failed: " + name, "cuda", name, code, sticky);
    }
};

class FakeSession : public TransferSession {
public:
    explicit FakeSession(Fault f) : f_(std::move(f)) {}
    void warmup(std::size_t bytes, const std::string&) override { fail_from(bytes, "warm-up copy"); }
    Sample measure(std::size_t bytes, const std::string&) override {
        fail_from(bytes, "cudaMemcpyAsync");
        Sample s;
        s.bytes_per_rep = static_cast<double>(bytes);
        s.seconds = static_cast<double>(bytes) / 1e9;  // 1 GB/s
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return ""; }
    std::size_t max_bytes() const override { return 1u << 30; }

private:
    void fail_from(std::size_t bytes, const std::string& call) const {
        if (f_.at == Fault::At::Measure && bytes >= f_.from_bytes) throw f_.error(call);
    }
    Fault f_;
};

// `kind` endpoints, same-vertex pairs only; the session fails as `fault` says.
class FakeMethod : public Characterizer {
public:
    FakeMethod(std::string name, VertexKind kind, Fault fault = {}) : name_(std::move(name)), kind_(kind), f_(fault) {}
    std::string name() const override { return name_; }
    std::string description() const override { return "fake"; }
    std::vector<VertexKind> src_kinds() const override { return {kind_}; }
    std::vector<VertexKind> dst_kinds() const override { return {kind_}; }
    Applicability applicable(const Graph&, const Vertex& s, const Vertex& d) const override {
        return s.id == d.id ? Applicability::yes() : Applicability::no("other vertex");
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {ParamSet{}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&, std::size_t,
                                             const MethodOptions&) const override {
        if (f_.at == Fault::At::Prepare && !f_.unavailable.empty()) throw Unavailable(f_.unavailable);
        if (f_.at == Fault::At::Prepare) throw f_.error("cudaMalloc");
        return std::make_unique<FakeSession>(f_);
    }

private:
    std::string name_;
    VertexKind kind_;
    Fault f_;
};

Graph numa_and_two_gpus() {
    Graph g;
    const auto add = [&g](const std::string& id, VertexKind kind) {
        Vertex v;
        v.id = id;
        v.kind = kind;
        v.os_index = 0;
        g.add_vertex(v);
    };
    add("numa0", VertexKind::NumaNode);
    add("gpu0", VertexKind::Gpu);
    add("gpu1", VertexKind::Gpu);
    return g;
}

RunOptions three_sizes() {
    RunOptions o;
    o.sizes = {1024, 4096, 1 << 20};
    o.stopping.min_samples = 3;
    return o;
}

Fault oom() { return {Fault::At::Prepare, 0, "cudaErrorMemoryAllocation", 2, false}; }
Fault illegal_address_from(std::size_t bytes) {
    return {Fault::At::Measure, bytes, "cudaErrorIllegalAddress", 700, true};
}

struct RunOutcome {
    ResultsFile results;
    std::vector<std::string> saved;   // keys handed to on_record, in order
    std::vector<std::string> losses;  // on_device_lost summaries
    std::size_t measured = 0;
};

RunOutcome run(const Graph& g, const Registry& reg, ResultsFile start = {}) {
    RunOutcome r;
    r.results = std::move(start);
    EngineHooks hooks;
    hooks.on_record = [&r](const Record& rec) { r.saved.push_back(rec.key); };
    hooks.on_device_lost = [&r](const std::string& s) { r.losses.push_back(s); };
    r.measured = run_plan(g, build_plan(g, reg, Filters{}, {}), three_sizes(), r.results, hooks);
    return r;
}

const Record& record(const ResultsFile& f, const std::string& key) {
    const Record* r = f.find(key);
    if (!r) throw std::runtime_error("no record " + key);
    return *r;
}

}  // namespace

TEST(EngineFaults, FailedAllocationIsOneErrorRecordNamingTheCudaErrorAndTheNextGpuRecordIsMeasured) {
    const Graph g = numa_and_two_gpus();
    Registry reg(test::catalog_with({"alloc", "copy"}));
    reg.add(std::make_unique<FakeMethod>("alloc", VertexKind::Gpu, oom()));
    reg.add(std::make_unique<FakeMethod>("copy", VertexKind::Gpu));
    const RunOutcome r = run(g, reg);
    EXPECT_EQ(r.measured, 4u);
    EXPECT_TRUE(r.losses.empty());
    for (const std::string gpu : {"gpu0", "gpu1"}) {
        const Record& alloc = record(r.results, "alloc|" + gpu + "|" + gpu + "|");
        EXPECT_EQ(alloc.status, "error");
        EXPECT_EQ(alloc.error, "prepare: cudaMalloc failed: cudaErrorMemoryAllocation");
        EXPECT_EQ(alloc.error_type, "hwcomm::DeviceError");
        EXPECT_EQ(alloc.context.at("device_error").at("name").get<std::string>(), "cudaErrorMemoryAllocation");
        EXPECT_EQ(alloc.context.at("device_error").at("code").get<int>(), 2);
        EXPECT_FALSE(alloc.context.at("device_error").at("context_lost").get<bool>());
        const Record& copy = record(r.results, "copy|" + gpu + "|" + gpu + "|");
        EXPECT_EQ(copy.status, "ok");
        EXPECT_EQ(copy.points.size(), 3u);
    }
}

// host_mem=huge on a node without huge pages, TMA on a GPU before sm_90: 'skipped' with the reason, no
// points, and the run goes on to the next record.
TEST(EngineFaults, MissingHardwareIsASkippedRecordWithItsReasonAndTheRunGoesOn) {
    const Graph g = numa_and_two_gpus();
    Registry reg(test::catalog_with({"huge", "copy"}));
    Fault none{Fault::At::Prepare};
    none.unavailable = "no huge pages on NUMA node 0: transparent huge pages are disabled (never)";
    reg.add(std::make_unique<FakeMethod>("huge", VertexKind::Gpu, none));
    reg.add(std::make_unique<FakeMethod>("copy", VertexKind::Gpu));
    const RunOutcome r = run(g, reg);
    EXPECT_TRUE(r.losses.empty());
    for (const std::string gpu : {"gpu0", "gpu1"}) {
        const Record& huge = record(r.results, "huge|" + gpu + "|" + gpu + "|");
        EXPECT_EQ(huge.status, "skipped");
        EXPECT_EQ(huge.error, "prepare: " + none.unavailable);
        EXPECT_EQ(huge.error_type, "hwcomm::Unavailable");
        EXPECT_TRUE(huge.points.empty());
        const Record& copy = record(r.results, "copy|" + gpu + "|" + gpu + "|");
        EXPECT_EQ(copy.status, "ok");
        EXPECT_EQ(copy.points.size(), 3u);
    }
}

TEST(EngineFaults, NonStickyErrorMidRecordFailsItsSizesOnlyAndTheRecordGoesOn) {
    const Graph g = numa_and_two_gpus();
    Registry reg(test::catalog_with({"flaky"}));
    Fault f{Fault::At::Measure, 4096, "cudaErrorInvalidValue", 1, false};
    reg.add(std::make_unique<FakeMethod>("flaky", VertexKind::Gpu, f));
    const RunOutcome r = run(g, reg);
    const Record& rec = record(r.results, "flaky|gpu0|gpu0|");
    ASSERT_EQ(rec.points.size(), 3u);  // every size tried
    EXPECT_EQ(rec.points[0].status, "ok");
    EXPECT_EQ(rec.points[1].status, "error");
    EXPECT_EQ(rec.points[2].status, "error");
    EXPECT_EQ(rec.error, "size 4096: warm-up copy failed: cudaErrorInvalidValue");
    EXPECT_EQ(record(r.results, "flaky|gpu1|gpu1|").points.size(), 3u);
    EXPECT_TRUE(r.losses.empty());
}

TEST(EngineFaults, StickyErrorKeepsThePointsBeforeItAndEndsTheGpuPartWhileCpuRecordsGoOn) {
    const Graph g = numa_and_two_gpus();
    Registry reg(test::catalog_with({"kernel", "copy", "cpu"}));
    reg.add(std::make_unique<FakeMethod>("kernel", VertexKind::Gpu, illegal_address_from(4096)));
    reg.add(std::make_unique<FakeMethod>("copy", VertexKind::Gpu));
    reg.add(std::make_unique<FakeMethod>("cpu", VertexKind::NumaNode));
    RunOutcome r = run(g, reg);

    // Measured: the faulting record and the CPU one; the 3 other GPU records are not.
    EXPECT_EQ(r.measured, 2u);
    EXPECT_EQ(r.saved, (std::vector<std::string>{"kernel|gpu0|gpu0|", "cpu|numa0|numa0|"}));
    ASSERT_EQ(r.results.records.size(), 5u);  // every planned record is in the file
    const Record& hit = record(r.results, "kernel|gpu0|gpu0|");
    EXPECT_EQ(hit.status, "error");
    ASSERT_EQ(hit.points.size(), 2u);  // 1024 measured, 4096 failed, 1 MiB never tried
    EXPECT_EQ(hit.points[0].status, "ok");
    EXPECT_NEAR(hit.points[0].bandwidth_gbps, 1.0, 1e-9);
    EXPECT_EQ(hit.points[1].status, "error");
    EXPECT_EQ(hit.error, "size 4096: warm-up copy failed: cudaErrorIllegalAddress");
    EXPECT_TRUE(hit.context.at("device_error").at("context_lost").get<bool>());

    for (const std::string key : {"kernel|gpu1|gpu1|", "copy|gpu0|gpu0|", "copy|gpu1|gpu1|"}) {
        const Record& skipped = record(r.results, key);
        EXPECT_EQ(skipped.status, "error") << key;
        EXPECT_EQ(skipped.error_type, kNotMeasuredDeviceLost) << key;
        EXPECT_TRUE(skipped.points.empty()) << key;
        EXPECT_EQ(skipped.error,
                  "not measured: the CUDA context was lost in kernel|gpu0|gpu0| (cudaErrorIllegalAddress); "
                  "--resume measures it in a new process");
        EXPECT_EQ(skipped.context.at("device_lost").at("record").get<std::string>(), "kernel|gpu0|gpu0|");
    }
    EXPECT_EQ(record(r.results, "cpu|numa0|numa0|").status, "ok");
    ASSERT_EQ(r.losses.size(), 1u);
    EXPECT_EQ(r.losses[0],
              "the CUDA context is lost (cudaErrorIllegalAddress in kernel|gpu0|gpu0|): 3 GPU record(s) not measured, "
              "kept as errors; the other records go on");

    // The file is whole and valid: it reads back with every record, and the run is finished with errors (exit 3).
    const ResultsFile back = results_from_json(results_to_json(r.results));
    EXPECT_EQ(back.records.size(), 5u);
    ResultsFile finished = back;
    end_run_state(finished.meta, true, "2026-11-22T00:00:00Z");
    EXPECT_EQ(run_exit_code(finished), kExitRecordErrors);
}

TEST(EngineFaults, StickyErrorInPrepareEndsTheGpuPartToo) {
    const Graph g = numa_and_two_gpus();
    Registry reg(test::catalog_with({"vanish", "cpu"}));
    Fault lost{Fault::At::Prepare, 0, "cudaErrorLaunchFailure", 719, true};
    reg.add(std::make_unique<FakeMethod>("vanish", VertexKind::Gpu, lost));
    reg.add(std::make_unique<FakeMethod>("cpu", VertexKind::NumaNode));
    const RunOutcome r = run(g, reg);
    EXPECT_EQ(r.measured, 2u);
    EXPECT_EQ(record(r.results, "vanish|gpu0|gpu0|").error, "prepare: cudaMalloc failed: cudaErrorLaunchFailure");
    EXPECT_EQ(record(r.results, "vanish|gpu1|gpu1|").error_type, kNotMeasuredDeviceLost);
    EXPECT_EQ(record(r.results, "cpu|numa0|numa0|").status, "ok");
    EXPECT_EQ(r.losses.size(), 1u);
}

TEST(EngineFaults, ResumeInANewProcessMeasuresTheRecordsALostContextLeftOut) {
    const Graph g = numa_and_two_gpus();
    Registry sick(test::catalog_with({"copy", "cpu"}));
    sick.add(std::make_unique<FakeMethod>("copy", VertexKind::Gpu, illegal_address_from(4096)));
    sick.add(std::make_unique<FakeMethod>("cpu", VertexKind::NumaNode));
    const RunOutcome first = run(g, sick);
    ASSERT_EQ(record(first.results, "copy|gpu1|gpu1|").error_type, kNotMeasuredDeviceLost);

    // The GPU works again (a new process, a reset GPU): same keys, healthy methods.
    Registry healthy(test::catalog_with({"copy", "cpu"}));
    healthy.add(std::make_unique<FakeMethod>("copy", VertexKind::Gpu));
    healthy.add(std::make_unique<FakeMethod>("cpu", VertexKind::NumaNode));
    const RunOutcome resumed = run(g, healthy, results_from_json(results_to_json(first.results)));
    EXPECT_EQ(resumed.saved, std::vector<std::string>{"copy|gpu1|gpu1|"});  // the failed record stays as it was
    ASSERT_EQ(resumed.results.records.size(), 3u);                            // replaced, not duplicated
    EXPECT_EQ(record(resumed.results, "copy|gpu1|gpu1|").status, "ok");
    EXPECT_EQ(record(resumed.results, "copy|gpu0|gpu0|").status, "error");
}
