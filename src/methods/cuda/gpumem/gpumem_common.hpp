#pragma once
// What the gpumem sessions share: one GPU, one stream, a pair of events
// around each kernel, a small device counter the read kernels add to (the
// check that every element was read), the GPU's memory facts, and the
// pointer chase that gives the latency the Little's-law bounds use.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/gpumem/gpumem_kernels.hpp"

namespace hwcomm::cuda::gpumem {

// Device facts the methods need, read once from CUDA attributes.
struct GpuMemFacts {
    int sm_count = 0;
    int max_warps_per_sm = 0;
    int sm_clock_khz = 0;       // peak, CUDA attribute
    int memory_clock_khz = 0;   // peak, CUDA attribute
    int bus_width_bits = 0;
    int l2_bytes = 0;
    double theoretical_gbps = 0;  // memory clock x 2 x bus width
};
GpuMemFacts gpu_mem_facts(int ordinal);
nlohmann::json to_json(const GpuMemFacts& facts);

// A stream and two events on one GPU; times one enqueued kernel between the
// events (--timing event) or by the host's clock around launch and wait (wall).
class KernelTimer {
public:
    KernelTimer(int device, TimingMode mode);
    // Enqueues `launch` between the events, waits, returns the seconds between them.
    double time(const std::function<void(cudaStream_t)>& launch);
    cudaStream_t stream() const { return stream_.get(); }
    void synchronize() const { stream_.synchronize(); }

private:
    int device_;
    bool wall_;
    Stream stream_;
    Event start_;
    Event stop_;
};

// Two unsigned 64-bit words on the device: [0] the elements a kernel read, [1] a sink.
class DeviceCounter {
public:
    explicit DeviceCounter(int device);
    unsigned long long* get() const { return reinterpret_cast<unsigned long long*>(buffer_.data()); }
    void zero(cudaStream_t stream) const;
    unsigned long long read() const;  // synchronous

private:
    DeviceBuffer buffer_;
};

// Who loads the nodes: an SM thread, or the bulk-copy unit (TMA, sm_90+) on its behalf.
enum class ChaseUnit { Sm, Tma };

// A pointer chase laid out in `memory` (device, peer or mapped host pointer)
// over a footprint, run by one thread of `exec`.
class PointerChase {
public:
    // ring: nodes in address order (chase_ring) instead of a random cycle.
    // remote: the memory is not exec's own (a peer's, the host's): chased from
    // several SMs from kChaseRotateFromBytes on (gpumem_model.hpp chase_segments).
    PointerChase(int exec, unsigned long long* memory, std::uint64_t capacity_bytes, ChaseUnit unit = ChaseUnit::Sm,
                 bool ring = false, bool remote = false);
    // Lays out a fresh single cycle when the footprint changes (untimed).
    void lay_out(std::uint64_t footprint_bytes, KernelTimer& timer);
    struct Result {
        double seconds = 0;
        double cycles_per_load = 0;
        double ns_per_load = 0;  // over all segments: the mean over their SMs
        std::uint32_t start_node = 0;
        std::uint64_t last_word = 0;
        std::uint64_t walked = 0;  // hops, the untimed ones at each segment's start included
        unsigned segments = 1;      // chased one after the other, each by one block
        unsigned distinct_sms = 1;  // the SMs those blocks ran on (two blocks may land on one)
        double nearest_sm_ns = 0;   // the fastest and the slowest segment's ns per load
        double farthest_sm_ns = 0;
    };
    // `steps` dependent loads from where the previous run stopped: every run
    // goes on around the cycle, so a node comes back only after all the
    // others (restarting at one node would time the same few, cached). From
    // kChaseRotateFromBytes on, remote memory's split over SMs (gpumem_model.hpp chase_segments).
    Result run(std::uint64_t steps, KernelTimer& timer);
    // Warm-up: a cycle that fits the GPU's L2 is read into it (from 1 MiB to
    // half the L2 every node by one block's threads, then `steps` loads;
    // otherwise once around by the chasing thread), a larger one gets `steps` loads: a cycle larger than L2 keeps nothing cached for the timed walk,
    // which goes on to nodes a whole cycle old (a 64 MiB cycle's round took
    // 0.2-0.6 s, most of a latency confirmation). Without a known L2 size,
    // once around up to 512 Ki nodes (64 MiB).
    void warm(std::uint64_t steps, KernelTimer& timer);
    // "" when the chase ended where the host's walk of the same cycle does.
    std::string check(const Result& r) const;
    std::uint32_t nodes() const { return static_cast<std::uint32_t>(next_.size()); }
    std::uint64_t node_stride_bytes() const { return stride_bytes_; }

private:
    int exec_;
    unsigned long long* memory_;
    std::uint64_t capacity_;
    std::uint64_t l2_bytes_ = 0;  // 0: unknown
    ChaseUnit unit_;
    bool ring_;
    bool remote_;
    std::uint64_t footprint_ = 0;
    std::uint64_t stride_bytes_ = 0;
    std::vector<std::uint32_t> next_;
    std::uint32_t position_ = 0;  // node the next run starts from
    unsigned sm_count_ = 0;
    std::uint64_t runs_ = 0;         // samples so far: the SMs move on by one each
    double last_ns_per_load_ = 0;    // sizes the next run's segments
    DeviceBuffer result_;
};

// "" when the vertex is a CUDA GPU and src == dst, else why not (the
// on-GPU methods measure one GPU's own memory).
Applicability on_gpu_applicable(const Vertex& src, const Vertex& dst);

// What the on-GPU methods share: one GPU's own memory, one parameter set (the
// axes carry the sweep), one size (the footprint, or less where memory is
// short), and a Session(graph, gpu, cap, options) over one device buffer.
template <typename Session>
class OnGpuCharacterizer : public Characterizer {
public:
    explicit OnGpuCharacterizer(std::uint64_t footprint) : footprint_(footprint) {}
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    Applicability applicable(const Graph&, const Vertex& src, const Vertex& dst) const override {
        return on_gpu_applicable(src, dst);
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions&) const override {
        return {{}};
    }
    SizePolicy size_policy() const override { return {1, footprint_, footprint_, 0}; }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex&, const ParamSet&,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const SizeCap cap = plan_buffers(options, std::min<std::size_t>(max_bytes, footprint_),
                                             {{cuda_ordinal(src), 1}}, 0);
            return std::make_unique<Session>(graph, src, cap, options);
        });
    }

private:
    std::uint64_t footprint_;
};

// Elements of `element_bytes` a kernel reads for a point of `bytes`: at least one.
inline std::uint64_t elements_of(std::uint64_t bytes, int element_bytes) {
    const std::uint64_t n = bytes / static_cast<std::uint64_t>(element_bytes);
    return n ? n : 1;
}

}  // namespace hwcomm::cuda::gpumem
