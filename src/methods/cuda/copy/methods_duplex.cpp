// duplex-d2d (GPU a -> b and b -> a at once, cudaMemcpyPeerAsync, peer on or
// off) and duplex-h2d (host -> GPU and GPU -> host at once, pinned memory on
// a NUMA node). Listed once per unordered GPU pair: fwd is src -> dst.
#include <memory>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/copy/copy_methods.hpp"
#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

namespace {

// Lane "fwd" (src -> dst) and lane "rev" (dst -> src), started together.
LaneSpec duplex_lane(const char* label, const char* method, const Vertex& from, const Vertex& to) {
    LaneSpec spec;
    spec.label = label;
    spec.method = method;
    spec.src = from.id;
    spec.dst = to.id;
    return spec;
}

class DuplexD2DSession final : public CudaLaneGroup {
public:
    DuplexD2DSession(const Graph& graph, const Vertex& src, const Vertex& dst, bool peer_on, const SizeCap& cap,
                     const MethodOptions& options)
        : CudaLaneGroup(options.timing, cap.max_bytes),
          a_(cuda_ordinal(src)),
          b_(cuda_ordinal(dst)),
          peer_(a_, b_, peer_on),
          a_src_(a_, cap.buffer_bytes),
          a_dst_(a_, cap.buffer_bytes),
          b_src_(b_, cap.buffer_bytes),
          b_dst_(b_, cap.buffer_bytes) {
        // fwd: a_src -> b_dst on a's stream; rev: b_src -> a_dst on b's stream.
        add_lane({duplex_lane("fwd", "memcpy-peer", src, dst), a_, BufferRef{nullptr, a_src_.data(), a_, false},
                  BufferRef{nullptr, b_dst_.data(), b_, false}, [this](std::size_t bytes, cudaStream_t stream) {
                      HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(b_dst_.data(), b_, a_src_.data(), a_, bytes, stream));
                  }});
        add_lane({duplex_lane("rev", "memcpy-peer", dst, src), b_, BufferRef{nullptr, b_src_.data(), b_, false},
                  BufferRef{nullptr, a_dst_.data(), a_, false}, [this](std::size_t bytes, cudaStream_t stream) {
                      HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(a_dst_.data(), a_, b_src_.data(), b_, bytes, stream));
                  }});
        report_lane_extras();
        context_.update(base_context(graph, {&src, &dst}, cap, options));
        context_["peer"] = peer_.describe();
        context_["call"] = "cudaMemcpyPeerAsync, fwd on the source GPU's stream, rev on the destination GPU's";
    }

private:
    int a_;
    int b_;
    PeerSetup peer_;
    DeviceBuffer a_src_, a_dst_, b_src_, b_dst_;
};

class DuplexH2DSession final : public CudaLaneGroup {
public:
    DuplexH2DSession(const Graph& graph, const Vertex& numa, const Vertex& gpu, HostMemKind kind, const SizeCap& cap,
                     const MethodOptions& options)
        : CudaLaneGroup(options.timing, cap.max_bytes),
          g_(cuda_ordinal(gpu)),
          host_src_(make_host_buffer(kind, topo_, numa.os_index, cap.host_bytes)),
          host_dst_(make_host_buffer(kind, topo_, numa.os_index, cap.host_bytes)),
          dev_dst_(g_, cap.buffer_bytes),
          dev_src_(g_, cap.buffer_bytes) {
        // fwd: host_src -> dev_dst (H2D); rev: dev_src -> host_dst (D2H); two streams of one GPU.
        add_lane({duplex_lane("fwd", "memcpy-h2d", numa, gpu), g_,
                  BufferRef{host_src_->data(), host_src_->device_view(), g_, false},
                  BufferRef{nullptr, dev_dst_.data(), g_, false}, [this](std::size_t bytes, cudaStream_t stream) {
                      HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dev_dst_.data(), host_src_->data(), bytes,
                                                        cudaMemcpyHostToDevice, stream));
                  }});
        add_lane({duplex_lane("rev", "memcpy-d2h", gpu, numa), g_, BufferRef{nullptr, dev_src_.data(), g_, false},
                  BufferRef{host_dst_->data(), host_dst_->device_view(), g_, false},
                  [this](std::size_t bytes, cudaStream_t stream) {
                      HWCOMM_CUDA_CHECK(cudaMemcpyAsync(host_dst_->data(), dev_src_.data(), bytes,
                                                        cudaMemcpyDeviceToHost, stream));
                  }});
        report_lane_extras();
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["host_buffer"] = {{"src", host_src_->describe()}, {"dst", host_dst_->describe()}};
        context_["call"] = "cudaMemcpyAsync: fwd host to device, rev device to host, two streams of one GPU";
    }

private:
    int g_;
    HwlocTopology topo_;  // names the host buffers' nodes (they live on the pool's own topology)
    std::unique_ptr<HostBuffer> host_src_;
    std::unique_ptr<HostBuffer> host_dst_;
    DeviceBuffer dev_dst_;
    DeviceBuffer dev_src_;
};

class DuplexD2D final : public Characterizer {
public:
    std::string name() const override { return "duplex-d2d"; }
    std::string description() const override {
        return "both directions between two GPUs at once (cudaMemcpyPeerAsync, one stream per direction, released "
               "together); bandwidth counts both directions, extras give each direction and the skews";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_cuda_gpu(dst); !why.empty()) return Applicability::no(why);
        if (cuda_ordinal(src) == cuda_ordinal(dst)) return Applicability::no("same GPU");
        if (cuda_ordinal(src) > cuda_ordinal(dst))
            return Applicability::no("duplex covers both directions: measured once, from the lower CUDA ordinal");
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph& graph, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        return peer_parameter_sets(graph, src, dst);
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"peer", "on: peer access enabled both ways; off: disabled (staged through the host)"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const bool on = peer_wanted(param_or_throw(params, "peer", {"on", "off"}, name()));
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(src), 2}, {cuda_ordinal(dst), 2}}, 0);
            return std::make_unique<DuplexD2DSession>(graph, src, dst, on, cap, options);
        });
    }
};

class DuplexH2D final : public Characterizer {
public:
    std::string name() const override { return "duplex-h2d"; }
    std::string description() const override {
        return "host to GPU and GPU to host at once (pinned memory on the NUMA node, one stream per direction, "
               "released together); fwd is H2D, rev is D2H";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_host_node(src); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_cuda_gpu(dst); !why.empty()) return Applicability::no(why);
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex&,
                                         const MethodOptions&) const override {
        return host_parameter_sets(src, {"pinned"});
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"host_mem", "pinned (cudaHostAlloc by a thread bound to the node)"},
                {"numa", "OS index of the NUMA node holding both host buffers"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const HostMemKind kind = host_mem_kind_from_string(
                param_or_throw(params, "host_mem", {"pinned", "registered"}, name()));
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(dst), 2}}, 2);
            return std::make_unique<DuplexH2DSession>(graph, src, dst, kind, cap, options);
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_duplex_d2d() { return std::make_unique<DuplexD2D>(); }
std::unique_ptr<Characterizer> make_duplex_h2d() { return std::make_unique<DuplexH2D>(); }

}  // namespace hwcomm::cuda
