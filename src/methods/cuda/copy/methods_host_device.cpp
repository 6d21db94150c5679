// memcpy-h2d, memcpy-d2h (host memory of every kind on every NUMA node against
// every GPU) and memcpy-h2h (the pageable-to-pinned staging copy).
#include <memory>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/copy/copy_methods.hpp"
#include "methods/cuda/lanes/one_way_session.hpp"

namespace hwcomm::cuda {

namespace {

enum class Direction { HostToDevice, DeviceToHost };

class HostDeviceSession final : public OneWaySession {
public:
    HostDeviceSession(const Graph& graph, const Vertex& numa, const Vertex& gpu, Direction dir, HostMemKind kind,
                      const SizeCap& cap, const MethodOptions& options)
        : OneWaySession(cuda_ordinal(gpu), options.timing, cap.max_bytes),
          dir_(dir),
          ordinal_(cuda_ordinal(gpu)),
          host_(make_host_buffer(kind, topo_, numa.os_index, cap.host_bytes)),
          device_(ordinal_, cap.buffer_bytes) {
        const BufferRef host_ref{host_->data(), host_->device_view(), ordinal_, kind == HostMemKind::WriteCombined};
        const BufferRef dev_ref{nullptr, device_.data(), ordinal_, false};
        const bool h2d = dir == Direction::HostToDevice;
        set_endpoints(h2d ? host_ref : dev_ref, h2d ? dev_ref : host_ref, host_->page_locked(),
                      "none: with pageable memory cudaMemcpyAsync blocks the host, so a held stream would "
                      "deadlock; the events bracket each copy as queued");
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["host_buffer"] = host_->describe();
    }

private:
    void enqueue_copy(std::size_t bytes, cudaStream_t stream) override {
        if (dir_ == Direction::HostToDevice)
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(device_.data(), host_->data(), bytes, cudaMemcpyHostToDevice, stream));
        else
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(host_->data(), device_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    }
    void copy_blocking(std::size_t bytes) override {
        ScopedDevice on(ordinal_);
        if (dir_ == Direction::HostToDevice)
            HWCOMM_CUDA_CHECK(cudaMemcpy(device_.data(), host_->data(), bytes, cudaMemcpyHostToDevice));
        else
            HWCOMM_CUDA_CHECK(cudaMemcpy(host_->data(), device_.data(), bytes, cudaMemcpyDeviceToHost));
        // From pageable memory cudaMemcpy may return once the data is staged,
        // before the DMA finished (the original study synchronized here too).
        if (!host_->page_locked()) HWCOMM_CUDA_CHECK(cudaDeviceSynchronize());
    }

    Direction dir_;
    int ordinal_;
    HwlocTopology topo_;  // names the host buffer's node (the buffer lives on the pool's own topology)
    std::unique_ptr<HostBuffer> host_;
    DeviceBuffer device_;
};

class MemcpyHostDevice final : public Characterizer {
public:
    explicit MemcpyHostDevice(Direction dir) : dir_(dir) {}
    std::string name() const override { return dir_ == Direction::HostToDevice ? "memcpy-h2d" : "memcpy-d2h"; }
    std::string description() const override {
        return dir_ == Direction::HostToDevice
                   ? "cudaMemcpyAsync host to GPU (copy engine) from pageable, pinned, registered or write-combined "
                     "memory placed on the source NUMA node"
                   : "cudaMemcpyAsync GPU to host (copy engine) into pageable, pinned, registered or write-combined "
                     "memory placed on the destination NUMA node";
    }
    std::vector<VertexKind> src_kinds() const override {
        return {dir_ == Direction::HostToDevice ? VertexKind::NumaNode : VertexKind::Gpu};
    }
    std::vector<VertexKind> dst_kinds() const override {
        return {dir_ == Direction::HostToDevice ? VertexKind::Gpu : VertexKind::NumaNode};
    }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        const Vertex& host = dir_ == Direction::HostToDevice ? src : dst;
        const Vertex& gpu = dir_ == Direction::HostToDevice ? dst : src;
        if (auto why = why_not_host_node(host); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_cuda_gpu(gpu); !why.empty()) return Applicability::no(why);
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        return host_parameter_sets(dir_ == Direction::HostToDevice ? src : dst, host_memory_kinds());
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"host_mem", "pageable (malloc, first touch) | pinned (cudaHostAlloc) | registered (NUMA-bound, "
                             "cudaHostRegister) | wc (write-combined cudaHostAlloc) | huge (registered on transparent "
                             "huge pages; skipped where the node gets none)"},
                {"numa", "OS index of the NUMA node holding the host buffer"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Vertex& host = dir_ == Direction::HostToDevice ? src : dst;
            const Vertex& gpu = dir_ == Direction::HostToDevice ? dst : src;
            const HostMemKind kind =
                host_mem_kind_from_string(param_or_throw(params, "host_mem", host_memory_kinds(), name()));
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(gpu), 1}}, 1);
            return std::make_unique<HostDeviceSession>(graph, host, gpu, dir_, kind, cap, options);
        });
    }

private:
    Direction dir_;
};

// Pageable (first-touched on the source node) to registered pinned memory on
// the destination node, through cudaMemcpy: the CPU-side staging copy that
// every pageable transfer pays. The CPU does it, so it is wall-clock timed.
class HostHostSession final : public OneWaySession {
public:
    HostHostSession(const Graph& graph, const Vertex& src, const Vertex& dst, const Vertex& gpu, const SizeCap& cap,
                    const MethodOptions& options)
        : OneWaySession(cuda_ordinal(gpu), options.timing, cap.max_bytes),
          ordinal_(cuda_ordinal(gpu)),
          src_(make_host_buffer(HostMemKind::Pageable, topo_, src.os_index, cap.host_bytes)),
          dst_(make_host_buffer(HostMemKind::Registered, topo_, dst.os_index, cap.host_bytes)) {
        set_endpoints(BufferRef{src_->data(), nullptr, -1, false}, BufferRef{dst_->data(), nullptr, -1, false}, false,
                      "");
        force_wall("host-to-host cudaMemcpy runs on the CPU: GPU events cannot time it");
        context_.update(base_context(graph, {&gpu}, cap, options));
        context_["host_buffer"] = {{"src", src_->describe()}, {"dst", dst_->describe()}};
    }

private:
    void enqueue_copy(std::size_t bytes, cudaStream_t stream) override {
        HWCOMM_CUDA_CHECK(cudaMemcpyAsync(dst_->data(), src_->data(), bytes, cudaMemcpyHostToHost, stream));
    }
    void copy_blocking(std::size_t bytes) override {
        ScopedDevice on(ordinal_);
        HWCOMM_CUDA_CHECK(cudaMemcpy(dst_->data(), src_->data(), bytes, cudaMemcpyHostToHost));
    }

    int ordinal_;
    HwlocTopology topo_;
    std::unique_ptr<HostBuffer> src_;
    std::unique_ptr<HostBuffer> dst_;
};

class MemcpyHostHost final : public Characterizer {
public:
    std::string name() const override { return "memcpy-h2h"; }
    std::string description() const override {
        return "cudaMemcpy from pageable memory on the source node to pinned memory on the destination node (the "
               "staging copy of pageable transfers), wall clock";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_host_node(src); !why.empty()) return Applicability::no(why);
        if (auto why = why_not_host_node(dst); !why.empty()) return Applicability::no(why);
        if (!first_cuda_gpu(graph)) return Applicability::no("no CUDA GPU in the graph: cudaMemcpy needs one");
        return Applicability::yes();
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions&) const override {
        return {{{"src_mem", "pageable"}, {"dst_mem", "registered"}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"src_mem", "pageable: malloc'd, first-touched on the source node"},
                {"dst_mem", "registered: NUMA-bound and cudaHostRegister'd on the destination node"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Vertex* gpu = first_cuda_gpu(graph);
            if (!gpu) throw MeasurementError("no CUDA GPU in the graph");
            const SizeCap cap = plan_buffers(options, max_bytes, {}, 2);
            return std::make_unique<HostHostSession>(graph, src, dst, *gpu, cap, options);
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_memcpy_h2d() { return std::make_unique<MemcpyHostDevice>(Direction::HostToDevice); }
std::unique_ptr<Characterizer> make_memcpy_d2h() { return std::make_unique<MemcpyHostDevice>(Direction::DeviceToHost); }
std::unique_ptr<Characterizer> make_memcpy_h2h() { return std::make_unique<MemcpyHostHost>(); }

}  // namespace hwcomm::cuda
