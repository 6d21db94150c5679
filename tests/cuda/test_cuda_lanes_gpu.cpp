// GPU tests (label "gpu") of the lane group: a session that moves nothing, or
// the wrong half, fails verification of its timed transfers (also when it
// breaks after good samples into a destination poisoned once); the concurrency
// methods run every lane and verify each; the engine turns a broken copy into
// an error point.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "gpu_test_support.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/lanes/lane_group.hpp"
#include "methods/cuda/register.hpp"
#include "methods/group_characterizer.hpp"
#include "run/engine.hpp"

using namespace hwcomm;
using namespace hwcomm::cuda;

namespace {

enum class Breakage { None, NothingCopied, FirstHalfOnly };

// A device-to-device copy on one GPU, deliberately broken for the test.
class BrokenCopySession final : public CudaLaneGroup {
public:
    BrokenCopySession(Breakage how, std::size_t bytes)
        : CudaLaneGroup(TimingMode::Event, bytes), src_(0, bytes), dst_(0, bytes) {
        CudaLaneDef lane;
        lane.spec.label = "broken";
        lane.device = 0;
        lane.src = BufferRef{nullptr, src_.data(), 0, false};
        lane.dst = BufferRef{nullptr, dst_.data(), 0, false};
        lane.enqueue = [this, how](std::size_t n, cudaStream_t s) {
            if (how == Breakage::NothingCopied) return;
            const std::size_t moved = how == Breakage::FirstHalfOnly ? n / 2 : n;
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dst_.data(), src_.data(), moved, cudaMemcpyDeviceToDevice, s));
        };
        add_lane(std::move(lane));
    }

private:
    DeviceBuffer src_, dst_;
};

// A device-to-host copy into pageable memory, whose destination the CPU fills
// and poisons once per session: correct until break_copy(), then broken.
class BreaksLaterSession final : public CudaLaneGroup {
public:
    explicit BreaksLaterSession(std::size_t bytes)
        : CudaLaneGroup(TimingMode::Event, bytes), src_(0, bytes), dst_(bytes) {
        CudaLaneDef lane;
        lane.spec.label = "breaks-later";
        lane.device = 0;
        lane.src = BufferRef{nullptr, src_.data(), 0, false};
        lane.dst = BufferRef{dst_.data(), nullptr, -1, false};
        lane.enqueue = [this](std::size_t n, cudaStream_t s) {
            if (how_ == Breakage::NothingCopied) return;
            const std::size_t moved = how_ == Breakage::FirstHalfOnly ? n / 2 : n;
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dst_.data(), src_.data(), moved, cudaMemcpyDeviceToHost, s));
        };
        add_lane(std::move(lane));
        disable_gate("pageable destination: queueing a copy blocks the host");
    }
    void break_copy(Breakage how) { how_ = how; }

private:
    DeviceBuffer src_;
    std::vector<std::byte> dst_;
    Breakage how_ = Breakage::None;
};

class BrokenMethod final : public Characterizer {
public:
    explicit BrokenMethod(Breakage how) : how_(how) {}
    std::string name() const override { return "broken-d2d"; }
    std::string description() const override { return "test only"; }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex&, const Vertex&) const override { return Applicability::yes(); }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&, const MethodOptions&) const override {
        return {{}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions&) const override {
        return std::make_unique<BrokenCopySession>(how_, max_bytes);
    }

private:
    Breakage how_;
};

std::string one_sample(TransferSession& s, std::size_t bytes) {
    s.warmup(bytes, "");
    s.reset(bytes, "");
    s.measure(bytes, "");
    return s.verify(bytes, "");
}

}  // namespace

TEST(CudaLanes, ACopyThatMovesNothingOrHalfFailsVerificationAfterItsTimedBatch) {
    REQUIRE_GPUS(1);
    const std::size_t n = 4 << 20;
    BrokenCopySession good(Breakage::None, n), nothing(Breakage::NothingCopied, n), half(Breakage::FirstHalfOnly, n);
    EXPECT_EQ(one_sample(good, n), "");
    EXPECT_NE(one_sample(nothing, n), "");
    const std::string wrong = one_sample(half, n);
    EXPECT_NE(wrong.find(std::to_string(n / 2) + " of " + std::to_string(n)), std::string::npos) << wrong;
    // The warm-up moved the pattern too: a second sample of the broken copy must still fail.
    nothing.reset(n, "");
    nothing.measure(n, "");
    EXPECT_NE(nothing.verify(n, ""), "");
}

// The destination the CPU fills is poisoned once per session, not before every
// sample: after good samples it holds their patterns, and a copy that then
// moves nothing, or half, must still fail (every seed's pattern differs from
// every other's in every word).
TEST(CudaLanes, APageableDestinationPoisonedOnceStillCatchesACopyThatStopsMoving) {
    REQUIRE_GPUS(1);
    const std::size_t n = (4 << 20) + 48;
    for (Breakage how : {Breakage::NothingCopied, Breakage::FirstHalfOnly}) {
        BreaksLaterSession s(n);
        EXPECT_EQ(one_sample(s, n), "");
        for (int sample = 0; sample < 3; ++sample) {
            s.reset(n, "");
            s.measure(n, "");
            ASSERT_EQ(s.verify(n, ""), "");
        }
        s.break_copy(how);
        s.reset(n, "");
        s.measure(n, "");
        const std::string wrong = s.verify(n, "");
        EXPECT_NE(wrong, "");
        if (how == Breakage::FirstHalfOnly) {
            EXPECT_NE(wrong.find("first at byte " + std::to_string(n / 2)), std::string::npos) << wrong;
        }
        // A smaller size after the larger one: still this seed's bytes only.
        s.break_copy(Breakage::None);
        EXPECT_EQ(one_sample(s, n / 2), "");
    }
}

TEST(CudaLanes, TheEngineMarksABrokenCopyAsAVerificationError) {
    REQUIRE_GPUS(1);
    const Graph g = live_graph();
    BrokenMethod m(Breakage::FirstHalfOnly);
    PlannedRecord p{&m, g.find("gpu0"), g.find("gpu0"), {}, "broken-d2d|gpu0|gpu0|"};
    RunOptions o;
    o.sizes = {1 << 20};
    const Record r = *measure_record(g, p, o);
    EXPECT_EQ(r.status, "error");
    EXPECT_EQ(r.error_type, "verification");
    ASSERT_EQ(r.points.size(), 1u);
    EXPECT_FALSE(r.points[0].verified);
}

TEST(CudaLanes, ConcurrencyMethodsRunEveryLaneAndVerifyEach) {
    REQUIRE_GPUS(2);
    const Graph g = live_graph();
    Registry reg;
    register_cuda_methods(reg);
    const std::size_t n = 64u << 20;
    for (const char* name : {"all-to-host", "host-to-all", "all-to-one", "one-to-all"}) {
        const auto* m = dynamic_cast<const GroupCharacterizer*>(reg.find(name));
        ASSERT_NE(m, nullptr) << name;
        const auto sets = m->endpoint_sets(g);
        ASSERT_FALSE(sets.empty()) << name;
        ASSERT_TRUE(sets.front().applicability.ok) << name << ": " << sets.front().applicability.reason;
        for (const auto& params : m->set_parameter_sets(g, sets.front(), {})) {
            auto s = m->prepare_set(g, sets.front(), params, n, MethodOptions{});
            const auto lanes = s->lanes();
            const std::size_t expected = std::string(name).find("host") != std::string::npos
                                             ? static_cast<std::size_t>(gpu_count())
                                             : static_cast<std::size_t>(gpu_count() - 1);
            EXPECT_EQ(lanes.size(), expected) << name;
            s->warmup(n, "");
            s->reset(n, "");
            const Sample sample = s->measure(n, "");
            EXPECT_EQ(sample.lanes.size() > 1 ? sample.lanes.size() : lanes.size(), expected) << name;
            EXPECT_EQ(sample.bytes_per_rep, static_cast<double>(n) * static_cast<double>(expected)) << name;
            EXPECT_EQ(s->verify(n, ""), "") << name << " " << params.at("mode");
            for (const auto& l : sample.lanes) EXPECT_LE(l.seconds, sample.seconds * 1.0001) << name;
        }
    }
}
