// gpumem-latency: load latency by pointer chase. One thread of the source GPU
// follows a random single cycle of dependent 8-byte loads laid out over a
// working set (the point's bytes) in the destination's memory: its own HBM
// (src == dst; L1, L2 and DRAM as the footprint grows), a peer GPU's memory
// (NVLink or PCIe), or pinned host memory on a NUMA node (PCIe or C2C).
#include <memory>
#include <optional>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/gpumem/gpumem_common.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"

namespace hwcomm::cuda::gpumem {

namespace {

// Timed dependent loads per sample: ~10 ms at DRAM latency, ~1 ms in L1.
constexpr std::uint64_t kSteps = 1u << 14;

class LatencySession final : public TransferSession {
public:
    LatencySession(const Graph& graph, const Vertex& src, const Vertex& dst, const SizeCap& cap,
                   const MethodOptions& options)
        : exec_(cuda_ordinal(src)), timer_(exec_, options.timing) {
        context_["timing_mode"] = to_string(options.timing);
        context_.update(base_context(graph, {&src}, cap, options));
        context_["gpumem"] = to_json(gpu_mem_facts(exec_));
        unsigned long long* memory = nullptr;
        if (dst.kind == VertexKind::NumaNode) {
            topo_ = std::make_unique<HwlocTopology>();
            host_ = make_host_buffer(HostMemKind::Pinned, *topo_, dst.os_index, cap.host_bytes);
            if (!host_->device_view()) throw MeasurementError("the pinned host buffer has no device mapping");
            memory = reinterpret_cast<unsigned long long*>(host_->device_view());
            capacity_ = host_->size();
            context_["host_buffer"] = host_->describe();
        } else {
            const int owner = cuda_ordinal(dst);
            if (owner != exec_) {
                peer_.emplace(PeerSetup::one_way(exec_, owner));
                context_["peer"] = peer_->describe();
            }
            device_ = std::make_unique<DeviceBuffer>(owner, cap.buffer_bytes);
            memory = reinterpret_cast<unsigned long long*>(device_->data());
            capacity_ = device_->size();
        }
        chase_.emplace(exec_, memory, capacity_);
        context_["kernel"] = {{"gpu", exec_},
                              {"how", "one thread, dependent 8-byte loads along a random single cycle"},
                              {"node_spacing", ">= 128 bytes, at most 4 Mi nodes over the footprint"},
                              {"timed_loads_per_sample", kSteps},
                              {"walk", "each sample goes on around the cycle where the last stopped"},
                              {"warmup", "once around the cycle up to 512 Ki nodes (64 MiB), else 16384 loads"},
                              {"cycles", "clock64 of the SM"},
                              {"ns", "globaltimer"}};
    }

    void warmup(std::size_t bytes, const std::string&) override {
        chase_->lay_out(bytes, timer_);
        chase_->warm(kSteps, timer_);
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        chase_->lay_out(bytes, timer_);
        last_ = chase_->run(kSteps, timer_);
        Sample s;
        s.seconds = last_.seconds;
        s.bytes_per_rep = static_cast<double>(kSteps * 8);
        s.metrics["latency_cycles"] = {last_.cycles_per_load, "cycles"};
        s.metrics["latency_ns"] = {last_.ns_per_load, "ns"};
        if (last_.ns_per_load > 0) s.metrics["sm_clock_mhz"] = {last_.cycles_per_load / last_.ns_per_load * 1e3, "MHz"};
        s.metrics["chase_nodes"] = {static_cast<double>(chase_->nodes()), "count"};
        s.metrics["node_stride_bytes"] = {static_cast<double>(chase_->node_stride_bytes()), "bytes"};
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return chase_->check(last_, kSteps); }
    nlohmann::json context() const override { return context_; }
    std::size_t max_bytes() const override { return capacity_; }

private:
    int exec_;
    KernelTimer timer_;
    std::optional<PeerSetup> peer_;
    std::unique_ptr<HwlocTopology> topo_;  // before host_: the host buffer borrows it
    std::unique_ptr<HostBuffer> host_;
    std::unique_ptr<DeviceBuffer> device_;
    std::uint64_t capacity_ = 0;
    std::optional<PointerChase> chase_;
    PointerChase::Result last_;
    nlohmann::json context_;
};

class LatencyMethod final : public Characterizer {
public:
    std::string name() const override { return "gpumem-latency"; }
    std::string description() const override {
        return "load latency by pointer chase from a GPU into its own memory, a peer GPU's or pinned host memory "
               "(working set = size)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu, VertexKind::NumaNode}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
        if (dst.kind == VertexKind::NumaNode) {
            if (auto why = why_not_host_node(dst); !why.empty()) return Applicability::no(why);
            return Applicability::yes();
        }
        if (auto why = why_not_cuda_gpu(dst); !why.empty()) return Applicability::no(why);
        if (src.id == dst.id) return Applicability::yes();
        const PeerPath path = peer_path_in_graph(graph, src, dst);
        if (!path.possible) return Applicability::no("needs peer access: " + path.via);
        return Applicability{true, "peer path: " + path.via};
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        if (dst.kind == VertexKind::NumaNode) return {{{"memory", "host-pinned"}}};
        return {{{"memory", src.id == dst.id ? "local" : "peer"}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"memory", "local (the GPU's own memory), peer (dst GPU's memory, peer access on) or host-pinned "
                           "(cudaHostAlloc on the dst NUMA node, mapped)"}};
    }
    SizePolicy size_policy() const override { return {8, 4096, std::uint64_t{4} << 30, 0}; }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet&, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const bool host = dst.kind == VertexKind::NumaNode;
            const int owner = host ? cuda_ordinal(src) : cuda_ordinal(dst);
            const SizeCap cap = plan_buffers(options, max_bytes, {{owner, host ? 0u : 1u}}, host ? 1 : 0);
            return std::make_unique<LatencySession>(graph, src, dst, cap, options);
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_gpumem_latency() { return std::make_unique<LatencyMethod>(); }

}  // namespace hwcomm::cuda::gpumem
