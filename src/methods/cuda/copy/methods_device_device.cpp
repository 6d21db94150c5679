// memcpy-d2d (cudaMemcpyAsync between two GPUs, or within one: the local
// baseline) and memcpy-peer (cudaMemcpyPeerAsync), peer access on and off.
#include <memory>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/lanes/round_session.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/copy/copy_methods.hpp"
#include "methods/cuda/lanes/one_way_session.hpp"

namespace hwcomm::cuda {

namespace {

enum class CopyCall { Memcpy, MemcpyPeer };

class DeviceDeviceSession final : public OneWaySession {
public:
    DeviceDeviceSession(const Graph& graph, const Vertex& src, const Vertex& dst, CopyCall call, const ParamSet& params,
                        const SizeCap& cap, const MethodOptions& options)
        : OneWaySession(cuda_ordinal(src), options.timing, cap.max_bytes),
          call_(call),
          a_(cuda_ordinal(src)),
          b_(cuda_ordinal(dst)),
          src_(a_, cap.buffer_bytes),
          dst_(b_, cap.buffer_bytes) {
        if (a_ != b_) {
            const bool on = peer_wanted(param_or_throw(params, "peer", {"on", "off"}, call == CopyCall::Memcpy ? "memcpy-d2d" : "memcpy-peer"));
            peer_ = std::make_unique<PeerSetup>(a_, b_, on);
        }
        set_endpoints(BufferRef{nullptr, src_.data(), a_, false}, BufferRef{nullptr, dst_.data(), b_, false}, true, "");
        context_.update(base_context(graph, a_ == b_ ? std::vector<const Vertex*>{&src}
                                                     : std::vector<const Vertex*>{&src, &dst},
                                     cap, options));
        context_["peer"] = peer_ ? peer_->describe() : nlohmann::json("same GPU");
        context_["call"] = call == CopyCall::Memcpy ? "cudaMemcpyAsync(DeviceToDevice)" : "cudaMemcpyPeerAsync";
    }

private:
    void enqueue_copy(std::size_t bytes, cudaStream_t stream) override {
        if (call_ == CopyCall::Memcpy)
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dst_.data(), src_.data(), bytes, cudaMemcpyDeviceToDevice, stream));
        else
            HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(dst_.data(), b_, src_.data(), a_, bytes, stream));
    }
    void copy_blocking(std::size_t bytes) override {
        {
            ScopedDevice on(a_);
            if (call_ == CopyCall::Memcpy)
                HWCOMM_CUDA_CHECK(cudaMemcpy(dst_.data(), src_.data(), bytes, cudaMemcpyDeviceToDevice));
            else
                HWCOMM_CUDA_CHECK(cudaMemcpyPeer(dst_.data(), b_, src_.data(), a_, bytes));
            // Device-to-device cudaMemcpy returns before the copy ends.
            HWCOMM_CUDA_CHECK(cudaDeviceSynchronize());
        }
        if (b_ != a_) {
            ScopedDevice on(b_);
            HWCOMM_CUDA_CHECK(cudaDeviceSynchronize());
        }
    }

    CopyCall call_;
    int a_;
    int b_;
    std::unique_ptr<PeerSetup> peer_;
    DeviceBuffer src_;
    DeviceBuffer dst_;
};

class DeviceDeviceMethod final : public Characterizer {
public:
    explicit DeviceDeviceMethod(CopyCall call) : call_(call) {}
    std::string name() const override { return call_ == CopyCall::Memcpy ? "memcpy-d2d" : "memcpy-peer"; }
    std::string description() const override {
        return call_ == CopyCall::Memcpy
                   ? "cudaMemcpyAsync device to device between two GPUs with peer access on or off (off: staged "
                     "through the host), and within one GPU as the local baseline"
                   : "cudaMemcpyPeerAsync between two GPUs with peer access on or off (off: staged through the host)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_cuda_gpu(dst); !why.empty()) return Applicability::no(why);
        if (call_ == CopyCall::MemcpyPeer && src.id == dst.id)
            return Applicability::no("same GPU: memcpy-d2d measures the local baseline");
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph& graph, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        if (src.id == dst.id) return {ParamSet{}};
        return peer_parameter_sets(graph, src, dst);
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"peer", "on: cudaDeviceEnablePeerAccess both ways for the record; off: disabled both ways "
                         "(copies staged through host memory)"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(src), 1}, {cuda_ordinal(dst), 1}}, 0);
            return std::make_unique<DeviceDeviceSession>(graph, src, dst, call_, params, cap, options);
        });
    }

    // Peer on only: staged copies all cross the host, so their routes are never apart.
    bool measures_rounds(const ParamSet& params) const override {
        const auto it = params.find("peer");
        return it != params.end() && it->second == "on";
    }
    // Copy-engine lanes (cudaMemcpyPeerAsync; with peer access on and unified
    // addressing, memcpy-d2d's cudaMemcpyAsync takes the same route), queued by the source.
    std::unique_ptr<TransferSession> prepare_round(const Graph& graph, const std::vector<RoundLane>& lanes,
                                                   const ParamSet& params, std::size_t max_bytes,
                                                   const MethodOptions& options) const override {
        if (!measures_rounds(params)) return Characterizer::prepare_round(graph, lanes, params, max_bytes, options);
        return prepare_copy_round(graph, lanes, Executor::CopyEngine, Initiator::Writer, name(), max_bytes, options);
    }

private:
    CopyCall call_;
};

}  // namespace

std::unique_ptr<Characterizer> make_memcpy_d2d() { return std::make_unique<DeviceDeviceMethod>(CopyCall::Memcpy); }
std::unique_ptr<Characterizer> make_memcpy_peer() {
    return std::make_unique<DeviceDeviceMethod>(CopyCall::MemcpyPeer);
}

}  // namespace hwcomm::cuda
