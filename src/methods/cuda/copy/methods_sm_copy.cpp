// sm-copy-* and tma-copy-*: copies done on the GPU itself instead of by its
// copy engines, through a peer GPU's pointer or a mapped host pointer, on the
// same endpoints as memcpy-*. Two engines:
//   sm   GPU threads: 16-byte loads and stores (common/kernels.hpp)
//   tma  the Hopper bulk-copy unit: cp.async.bulk tiles staged through shared
//        memory, one thread per block issuing (common/tma_kernels.hpp; sm_90+)
//   sm-copy-d2d       kernel on the destination GPU loads through the peer pointer (pull)
//   sm-copy-d2d-push  kernel on the source GPU stores through the peer pointer
//   sm-copy-h2d       kernel on the GPU loads mapped pinned host memory
//   sm-copy-d2h       kernel on the GPU stores into mapped pinned host memory
//   tma-copy-d2d      bulk copies within one GPU (src == dst), or by the destination GPU from a peer (pull)
//   tma-copy-h2d      bulk copies by the GPU from mapped pinned host memory
//   tma-copy-d2h      bulk copies by the GPU into mapped pinned host memory
#include <memory>
#include <optional>
#include <string>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/kernels.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/common/tma_kernels.hpp"
#include "methods/cuda/copy/copy_methods.hpp"
#include "methods/cuda/lanes/one_way_session.hpp"
#include "methods/cuda/lanes/round_session.hpp"

namespace hwcomm::cuda {

namespace {

enum class Engine { Sm, Tma };
// PeerPull with src == dst: a copy within one GPU (tma-copy-d2d).
enum class SmKind { PeerPull, PeerPush, HostToDevice, DeviceToHost };
struct HostSide {};  // selects the host <-> GPU constructor

// The engine's GPU, and why it cannot copy ("" when it can): the bulk-copy unit needs sm_90.
std::string why_not_engine(Engine engine, const Vertex& gpu) {
    if (engine == Engine::Sm || !gpu.gpu) return "";
    return why_no_tma_cc(gpu.gpu->cc_major, gpu.gpu->cc_minor);
}

// Runs the copy kernel (or the bulk copies) on `exec_` from `src_ptr_` to `dst_ptr_`.
class SmCopySession final : public OneWaySession {
public:
    // GPU to GPU (or within one GPU).
    SmCopySession(const Graph& graph, const Vertex& src, const Vertex& dst, Engine engine, SmKind kind,
                  const SizeCap& cap, const MethodOptions& options)
        : OneWaySession(exec_for(kind, src, dst), options.timing, cap.max_bytes),
          exec_(exec_for(kind, src, dst)),
          sm_count_(sm_count_of(exec_)),
          engine_(engine) {
        require_engine();
        const int a = cuda_ordinal(src);
        const int b = cuda_ordinal(dst);
        // Pull: the destination GPU reads a's memory; push: the source GPU writes b's.
        if (a != b) peer_.emplace(kind == SmKind::PeerPull ? PeerSetup::one_way(b, a) : PeerSetup::one_way(a, b));
        dev_src_ = std::make_unique<DeviceBuffer>(a, cap.buffer_bytes);
        dev_dst_ = std::make_unique<DeviceBuffer>(b, cap.buffer_bytes);
        src_ptr_ = dev_src_->data();
        dst_ptr_ = dev_dst_->data();
        set_endpoints(BufferRef{nullptr, src_ptr_, a, false}, BufferRef{nullptr, dst_ptr_, b, false}, true, "");
        local_variants_ = engine_ == Engine::Tma && a == b && kTmaLocalL2Hints;
        if (local_variants_) {
            shape_ = kTmaLocalHinted;
            load_local_kernels(a);
        }
        context_.update(base_context(graph, {&src, &dst}, cap, options));
        if (peer_) context_["peer"] = peer_->describe();
        describe_kernel(a == b                      ? "within the GPU's own memory"
                        : kind == SmKind::PeerPull ? "pull: loads through the peer pointer"
                                                   : "push: stores through the peer pointer");
    }
    // Host to GPU or GPU to host, through mapped registered memory.
    SmCopySession(const Graph& graph, const Vertex& numa, const Vertex& gpu, Engine engine, SmKind kind,
                  const SizeCap& cap, const MethodOptions& options, HostSide)
        : OneWaySession(cuda_ordinal(gpu), options.timing, cap.max_bytes),
          exec_(cuda_ordinal(gpu)),
          sm_count_(sm_count_of(exec_)),
          engine_(engine) {
        require_engine();
        topo_ = std::make_unique<HwlocTopology>();
        host_ = make_host_buffer(HostMemKind::Registered, *topo_, numa.os_index, cap.host_bytes);
        if (!host_->device_view()) throw MeasurementError("the registered host buffer has no device mapping");
        dev_src_ = std::make_unique<DeviceBuffer>(exec_, cap.buffer_bytes);
        const BufferRef host_ref{host_->data(), host_->device_view(), exec_, false};
        const BufferRef dev_ref{nullptr, dev_src_->data(), exec_, false};
        const bool h2d = kind == SmKind::HostToDevice;
        src_ptr_ = h2d ? host_->device_view() : dev_src_->data();
        dst_ptr_ = h2d ? dev_src_->data() : host_->device_view();
        set_endpoints(h2d ? host_ref : dev_ref, h2d ? dev_ref : host_ref, true, "");
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["host_buffer"] = host_->describe();
        describe_kernel(h2d ? "loads mapped host memory" : "stores into mapped host memory");
    }

private:
    static int exec_for(SmKind kind, const Vertex& src, const Vertex& dst) {
        return kind == SmKind::PeerPull ? cuda_ordinal(dst) : cuda_ordinal(src);
    }
    // The graph may not know the GPU's compute capability: the device does.
    void require_engine() const {
        if (engine_ == Engine::Tma)
            if (const std::string why = why_no_tma(exec_); !why.empty()) throw Unavailable(why);
    }
    void describe_kernel(const std::string& how) {
        if (engine_ == Engine::Tma)
            context_["kernel"] = {{"gpu", exec_},
                                  {"how", how},
                                  {"engine", "tma: cp.async.bulk global -> shared -> global (cuda::ptx), one thread "
                                             "per block issuing"},
                                  {"tile_bytes", kTmaTileBytes},
                                  {"stages_per_block", kTmaStages},
                                  {"stores_in_flight_per_block", kTmaStoresInFlight},
                                  {"tiles_per_block", shape_.tiles_per_block},
                                  {"resident_blocks_per_sm_at_most", shape_.resident_blocks_per_sm},
                                  {"grid", "ceil(tiles / " + std::to_string(shape_.tiles_per_block) +
                                               ") blocks of one warp, tiles interleaved across blocks (block b: "
                                               "tiles b, b + grid, ...), " +
                                               (shape_.resident_blocks_per_sm > 0
                                                    ? "at most " + std::to_string(shape_.resident_blocks_per_sm) +
                                                          " resident per SM (each block asks for that share of "
                                                          "the SM's shared memory)"
                                                    : std::string("as many resident per SM as shared memory holds"))},
                                  {"l2_hints", local_variants_
                                                   ? "two variants, both measured at every size, each point the faster: "
                                                     + std::string(kTmaLocalPlainVariant) + " (none) and " +
                                                     kTmaLocalHintedVariant +
                                                     " (bulk loads evict_last, bulk stores evict_first, createpolicy "
                                                     "fraction 1.0); which is faster depends on the size and the GPU"
                                                   : "none"},
                                  {"sm_count", sm_count_}};
        else
            context_["kernel"] = {{"gpu", exec_},
                                  {"how", how},
                                  {"access", "16-byte vector loads/stores, 4 in flight per thread, byte tail loop"},
                                  {"grid", "min(4 x SMs, needed) blocks of 512 threads"},
                                  {"sm_count", sm_count_}};
    }
public:
    // A TMA copy within one GPU: its two L2 policies (kTmaLocalL2Hints).
    std::vector<std::string> variants() const override {
        if (!local_variants_) return {""};
        return {kTmaLocalPlainVariant, kTmaLocalHintedVariant};
    }
    void warmup(std::size_t bytes, const std::string& variant) override {
        select(variant);
        OneWaySession::warmup(bytes, variant);
    }
    Sample measure(std::size_t bytes, const std::string& variant) override {
        select(variant);
        return OneWaySession::measure(bytes, variant);
    }

private:
    // "" (a caller that names none) keeps the hinted shape.
    void select(const std::string& variant) {
        if (local_variants_) shape_ = variant == kTmaLocalPlainVariant ? kTmaLocalPlain : kTmaLocalHinted;
    }
    // Both kernels launched once, before any gated sample: CUDA loads a kernel
    // at its first launch and waits for the device to go idle first, and the
    // lane group's ungated first copy loads only the variant warmed first.
    void load_local_kernels(int gpu) {
        ScopedDevice on(gpu);
        for (const TmaCopyShape shape : {kTmaLocalPlain, kTmaLocalHinted})
            launch_tma_copy(stream().get(), dst_ptr_, src_ptr_, 16, shape);
        stream().synchronize();
    }
    void launch(std::size_t bytes, cudaStream_t stream) {
        if (engine_ == Engine::Tma) launch_tma_copy(stream, dst_ptr_, src_ptr_, bytes, shape_);
        else launch_copy_kernel(stream, dst_ptr_, src_ptr_, bytes, sm_count_);
    }
    void enqueue_copy(std::size_t bytes, cudaStream_t stream) override { launch(bytes, stream); }
    void copy_blocking(std::size_t bytes) override {
        ScopedDevice on(exec_);
        launch(bytes, stream().get());
        stream().synchronize();
    }

    int exec_;
    int sm_count_;
    Engine engine_;
    bool local_variants_ = false;  // a TMA copy within one GPU: both L2 policies (kTmaLocalL2Hints)
    TmaCopyShape shape_;           // the shape of the copies queued now
    std::optional<PeerSetup> peer_;
    std::unique_ptr<HwlocTopology> topo_;  // names the host buffer's node (the buffer lives on the pool's own topology)
    std::unique_ptr<HostBuffer> host_;
    std::unique_ptr<DeviceBuffer> dev_src_;
    std::unique_ptr<DeviceBuffer> dev_dst_;
    std::byte* src_ptr_ = nullptr;
    std::byte* dst_ptr_ = nullptr;
};

class SmCopyMethod final : public Characterizer {
public:
    SmCopyMethod(Engine engine, SmKind kind) : engine_(engine), kind_(kind) {}
    std::string name() const override {
        namespace n = method_name;
        const bool tma = engine_ == Engine::Tma;
        switch (kind_) {
        case SmKind::PeerPull: return tma ? n::kTmaCopyD2D : n::kSmCopyD2D;
        case SmKind::PeerPush: return n::kSmCopyD2DPush;  // no TMA push: the pull covers peers
        case SmKind::HostToDevice: return tma ? n::kTmaCopyH2D : n::kSmCopyH2D;
        case SmKind::DeviceToHost: return tma ? n::kTmaCopyD2H : n::kSmCopyD2H;
        }
        return "?";
    }
    std::string description() const override {
        if (engine_ == Engine::Tma) {
            switch (kind_) {
            case SmKind::PeerPull:
                return "bulk copies by the TMA unit (sm_90+) within one GPU (without and with L2 eviction hints, "
                       "the faster at each size), or by the destination GPU from a peer's memory (peer on)";
            case SmKind::HostToDevice: return "bulk copies by the TMA unit (sm_90+) from mapped pinned host memory";
            case SmKind::DeviceToHost: return "bulk copies by the TMA unit (sm_90+) into mapped pinned host memory";
            default: return "";
            }
        }
        switch (kind_) {
        case SmKind::PeerPull: return "copy kernel on the destination GPU loading through the peer pointer (peer on)";
        case SmKind::PeerPush: return "copy kernel on the source GPU storing through the peer pointer (peer on)";
        case SmKind::HostToDevice: return "copy kernel on the GPU loading mapped pinned host memory on a NUMA node";
        case SmKind::DeviceToHost: return "copy kernel on the GPU storing into mapped pinned host memory on a NUMA node";
        }
        return "";
    }
    bool peer() const { return kind_ == SmKind::PeerPull || kind_ == SmKind::PeerPush; }
    std::vector<VertexKind> src_kinds() const override {
        return {kind_ == SmKind::HostToDevice ? VertexKind::NumaNode : VertexKind::Gpu};
    }
    std::vector<VertexKind> dst_kinds() const override {
        return {kind_ == SmKind::DeviceToHost ? VertexKind::NumaNode : VertexKind::Gpu};
    }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        if (peer()) {
            if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
            if (auto why = why_not_cuda_gpu(dst); !why.empty()) return Applicability::no(why);
            if (auto why = why_not_engine(engine_, kind_ == SmKind::PeerPull ? dst : src); !why.empty())
                return Applicability::no(why);
            if (src.id == dst.id) {
                if (engine_ == Engine::Tma) return Applicability{true, "within the GPU"};
                return Applicability::no("same GPU: no peer pointer to go through");
            }
            const PeerPath path = peer_path_in_graph(graph, src, dst);
            if (!path.possible) return Applicability::no("needs peer access: " + path.via);
            return Applicability{true, "peer path: " + path.via};
        }
        const Vertex& host = kind_ == SmKind::HostToDevice ? src : dst;
        const Vertex& gpu = kind_ == SmKind::HostToDevice ? dst : src;
        if (auto why = why_not_host_node(host); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_cuda_gpu(gpu); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_engine(engine_, gpu); !why.empty()) return Applicability::no(why);
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        if (peer()) return src.id == dst.id ? std::vector<ParamSet>{{}} : std::vector<ParamSet>{{{"peer", "on"}}};
        return host_parameter_sets(kind_ == SmKind::HostToDevice ? src : dst, {"registered"});
    }
    std::map<std::string, std::string> parameter_docs() const override {
        if (peer()) return {{"peer", "on (always: the kernel dereferences the peer GPU's pointer)"}};
        return {{"host_mem", "registered: NUMA-bound, cudaHostRegister(Mapped)"},
                {"numa", "OS index of the NUMA node holding the host buffer"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            if (peer()) {
                const SizeCap cap =
                    plan_buffers(options, max_bytes, {{cuda_ordinal(src), 1}, {cuda_ordinal(dst), 1}}, 0);
                return std::make_unique<SmCopySession>(graph, src, dst, engine_, kind_, cap, options);
            }
            const Vertex& host = kind_ == SmKind::HostToDevice ? src : dst;
            const Vertex& gpu = kind_ == SmKind::HostToDevice ? dst : src;
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(gpu), 1}}, 1);
            return std::make_unique<SmCopySession>(graph, host, gpu, engine_, kind_, cap, options, HostSide{});
        });
    }

    bool measures_rounds(const ParamSet& params) const override {
        const auto it = params.find("peer");
        return peer() && it != params.end() && it->second == "on";
    }
    bool rounds_one_way(const ParamSet&) const override { return kind_ == SmKind::PeerPull; }
    // The lanes run the executor's copy on the GPU this method's copy runs on:
    // the destination pulls, the source pushes.
    std::unique_ptr<TransferSession> prepare_round(const Graph& graph, const std::vector<RoundLane>& lanes,
                                                   const ParamSet& params, std::size_t max_bytes,
                                                   const MethodOptions& options) const override {
        if (!measures_rounds(params)) return Characterizer::prepare_round(graph, lanes, params, max_bytes, options);
        // As a session alone says why (a GPU before sm_90 has no bulk-copy unit), before any lane is made.
        for (const RoundLane& lane : lanes) {
            const Vertex* exec = kind_ == SmKind::PeerPush ? lane.src : lane.dst;
            if (!exec) continue;
            if (const std::string why = why_not_engine(engine_, *exec); !why.empty()) throw Unavailable(why);
        }
        return prepare_copy_round(graph, lanes, engine_ == Engine::Tma ? Executor::Tma : Executor::Sm,
                                  kind_ == SmKind::PeerPush ? Initiator::Writer : Initiator::Reader, name(),
                                  max_bytes, options);
    }

private:
    Engine engine_;
    SmKind kind_;
};

}  // namespace

std::unique_ptr<Characterizer> make_sm_copy_d2d() { return std::make_unique<SmCopyMethod>(Engine::Sm, SmKind::PeerPull); }
std::unique_ptr<Characterizer> make_sm_copy_d2d_push() {
    return std::make_unique<SmCopyMethod>(Engine::Sm, SmKind::PeerPush);
}
std::unique_ptr<Characterizer> make_sm_copy_h2d() {
    return std::make_unique<SmCopyMethod>(Engine::Sm, SmKind::HostToDevice);
}
std::unique_ptr<Characterizer> make_sm_copy_d2h() {
    return std::make_unique<SmCopyMethod>(Engine::Sm, SmKind::DeviceToHost);
}
std::unique_ptr<Characterizer> make_tma_copy_d2d() {
    return std::make_unique<SmCopyMethod>(Engine::Tma, SmKind::PeerPull);
}
std::unique_ptr<Characterizer> make_tma_copy_h2d() {
    return std::make_unique<SmCopyMethod>(Engine::Tma, SmKind::HostToDevice);
}
std::unique_ptr<Characterizer> make_tma_copy_d2h() {
    return std::make_unique<SmCopyMethod>(Engine::Tma, SmKind::DeviceToHost);
}

}  // namespace hwcomm::cuda
