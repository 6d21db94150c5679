// gpumem-latency: load latency by pointer chase. One thread of the source GPU
// follows a random single cycle of dependent 8-byte loads laid out over a
// working set (the point's bytes) in the destination's memory: its own HBM
// (src == dst; L1, L2 and DRAM as the footprint grows), a peer GPU's memory
// (NVLink or PCIe), or pinned host memory on a NUMA node (PCIe or C2C).
// layout=ring128: the same chase with the nodes in address order, as
// nvbandwidth's latency tests walk them (0.993x of its host_device_latency_sm
// on an H100 in scripts/bench/latency_probe.cu; the random cycle +5.7%).
// gpumem-tma-latency: the same chase with every node fetched by the Hopper
// bulk-copy unit (a 16-byte cp.async.bulk into shared memory, sm_90+): what a
// TMA transfer waits for before its first bytes arrive.
// gpumem-loaded-latency: the chase over a working set beyond L2 while
// copy-engine copies load the same path (chase_loads.hpp), beside the same
// chase unloaded in the same record, as nvloom measures latency under load.
#include <algorithm>
#include <memory>
#include <optional>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/common/tma_kernels.hpp"
#include "methods/cuda/gpumem/chase_loads.hpp"
#include "methods/cuda/gpumem/gpumem_common.hpp"
#include "methods/cuda/gpumem/gpumem_methods.hpp"

namespace hwcomm::cuda::gpumem {

namespace {

// Timed dependent loads per sample: ~2.5 ms at DRAM latency, 5 ms to pinned
// host memory, 0.1 ms in L1, thousands of times the timers' resolution. At
// 16384 (until 2026-11-26) the samples were 2-3x the CI's needs: cv 0.1-0.2%,
// and a third of a 2-GPU default run's latency records.
constexpr std::uint64_t kSteps = 1u << 12;
// Warm-up beyond 512 Ki nodes: enough random loads to touch every 2 MiB page
// of a 1 GiB working set many times over (TLBs), whatever the sample length.
constexpr std::uint64_t kWarmLoads = 1u << 14;
// Under load ~1-2 ms, so the loads' queue (kMaxLoadChunks chunks) outlasts the
// chase even on a GPU's own memory (32 MiB chunks at ~1.5 TB/s: 2.7 ms).
constexpr std::uint64_t kLoadedSteps = 1u << 11;

struct Variant {
    ChaseUnit unit = ChaseUnit::Sm;
    bool loaded = false;
    bool ring = false;  // layout=ring128 (gpumem-latency only)
};

class LatencySession final : public TransferSession {
public:
    LatencySession(const Graph& graph, const Vertex& src, const Vertex& dst, const SizeCap& cap,
                   const MethodOptions& options, Variant variant)
        : exec_(cuda_ordinal(src)), timer_(exec_, options.timing),
          steps_(variant.loaded ? kLoadedSteps : kSteps) {
        const ChaseUnit unit = variant.unit;
        // The graph may not know the GPU's compute capability: the device does.
        if (unit == ChaseUnit::Tma)
            if (const std::string why = why_no_tma(exec_); !why.empty()) throw Unavailable(why);
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
        const bool remote = host_ || peer_;  // pinned host memory, or a peer GPU's
        chase_.emplace(exec_, memory, capacity_, unit, variant.ring, remote);
        if (variant.loaded) {
            loads_ = std::make_unique<ChaseLoads>(src, dst);
            LaneSpec chase;
            chase.label = "chase:" + src.id + "->" + dst.id;
            chase.method = method_name::kGpumemLoadedLatency;
            chase.src = src.id;
            chase.dst = dst.id;
            lanes_.push_back(chase);
            for (LaneSpec& l : loads_->specs()) lanes_.push_back(std::move(l));
        }
        context_["kernel"] = {{"gpu", exec_},
                              {"how", unit == ChaseUnit::Tma
                                          ? "one thread, dependent 16-byte cp.async.bulk copies of each node into "
                                            "shared memory (mbarrier completion) along a random single cycle"
                                          : variant.ring
                                              ? "one thread, dependent 8-byte loads along the nodes in address order "
                                                "(a ring, nvbandwidth's latency layout)"
                                              : "one thread, dependent 8-byte loads along a random single cycle"},
                              {"layout", variant.ring ? ChaseLayoutParam::Ring128 : "random"},
                              {"node_spacing", ">= 128 bytes, at most 4 Mi nodes over the footprint"},
                              {"timed_loads_per_sample", steps_},
                              {"walk", "each sample goes on around the cycle where the last stopped"},
                              {"sms", remote ? "from 1 MiB on, each sample's loads split into up to 16 segments of "
                                               "at least 64 us, chased one after the other from SMs spread over the "
                                               "GPU (block k of a grid of one block per SM), 32 untimed hops first on "
                                               "each (its TLBs); the next sample one SM on: latency_ns is the mean "
                                               "over those SMs (nvbandwidth's convention), latency_ns_nearest_sm and "
                                               "_farthest_sm the sample's fastest and slowest segment, chase_sms the "
                                               "distinct SMs its segments ran on; below 1 MiB one SM, its L1 warm"
                                             : "one SM (the GPU's own memory: the SM also decides which L2 partition "
                                               "holds the lines it warmed)"},
                              {"warmup", "a cycle that fits the L2 read into it (from 1 MiB to half the L2 every node by one block of "
                                         "1024 threads, then 16384 loads; otherwise once around the cycle), else 16384 loads"},
                              {"cycles", "clock64 of the SM"},
                              {"ns", "globaltimer"}};
    }

    void set_axes(const std::map<std::string, nlohmann::json>& values) override {
        if (auto it = values.find("load"); it != values.end()) load_ = it->second.get<std::string>();
    }
    void warmup(std::size_t bytes, const std::string& v) override {
        chase_->lay_out(bytes, timer_);
        chase_->warm(std::max(steps_, kWarmLoads), timer_);
        if (loads_ && load_ != "none") measure(bytes, v);  // the loads' buffers and plan warm too
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        chase_->lay_out(bytes, timer_);
        Sample s;
        if (loads_ && load_ != "none")
            loads_->run(load_, [&] { return (last_ = chase_->run(steps_, timer_)).seconds; }, s);
        else
            last_ = chase_->run(steps_, timer_);
        s.seconds = last_.seconds;
        s.bytes_per_rep = static_cast<double>(steps_ * 8);
        s.metrics["latency_cycles"] = {last_.cycles_per_load, "cycles"};
        s.metrics["latency_ns"] = {last_.ns_per_load, "ns"};
        if (last_.ns_per_load > 0) s.metrics["sm_clock_mhz"] = {last_.cycles_per_load / last_.ns_per_load * 1e3, "MHz"};
        s.metrics["chase_sms"] = {static_cast<double>(last_.distinct_sms), "count"};
        if (last_.segments > 1) {
            s.metrics["latency_ns_nearest_sm"] = {last_.nearest_sm_ns, "ns"};
            s.metrics["latency_ns_farthest_sm"] = {last_.farthest_sm_ns, "ns"};
        }
        s.metrics["chase_nodes"] = {static_cast<double>(chase_->nodes()), "count"};
        s.metrics["node_stride_bytes"] = {static_cast<double>(chase_->node_stride_bytes()), "bytes"};
        return s;
    }
    std::string verify(std::size_t, const std::string&) override { return chase_->check(last_); }
    std::vector<LaneSpec> lanes() const override { return lanes_; }
    nlohmann::json context() const override {
        if (!loads_) return context_;
        nlohmann::json j = context_;
        j["loads"] = loads_->context();
        return j;
    }
    std::size_t max_bytes() const override { return capacity_; }

private:
    int exec_;
    KernelTimer timer_;
    std::optional<PeerSetup> peer_;
    std::unique_ptr<HwlocTopology> topo_;  // names the host buffer's node (the buffer lives on the pool's own topology)
    std::unique_ptr<HostBuffer> host_;
    std::unique_ptr<DeviceBuffer> device_;
    std::uint64_t capacity_ = 0;
    std::optional<PointerChase> chase_;
    std::uint64_t steps_;
    std::unique_ptr<ChaseLoads> loads_;  // gpumem-loaded-latency only
    std::string load_ = "none";
    std::vector<LaneSpec> lanes_;
    PointerChase::Result last_;
    nlohmann::json context_;
};

class LatencyMethod final : public Characterizer {
public:
    explicit LatencyMethod(Variant variant) : v_(variant) {}
    std::string name() const override {
        if (v_.loaded) return method_name::kGpumemLoadedLatency;
        return v_.unit == ChaseUnit::Tma ? method_name::kGpumemTmaLatency : method_name::kGpumemLatency;
    }
    std::string description() const override {
        if (v_.loaded)
            return "load latency by pointer chase beyond L2 while copy-engine copies load the same path (axis load: "
                   "none, same direction, both directions), from a GPU into its own memory, a peer's or pinned host "
                   "memory";
        if (v_.unit == ChaseUnit::Tma)
            return "latency of the TMA bulk-copy unit (sm_90+) by pointer chase: each node a 16-byte cp.async.bulk "
                   "from the GPU's own memory, a peer GPU's or pinned host memory (working set = size)";
        return "load latency by pointer chase from a GPU into its own memory, a peer GPU's or pinned host memory "
               "(working set = size)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu, VertexKind::NumaNode}; }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
        if (v_.unit == ChaseUnit::Tma && src.gpu)
            if (auto why = why_no_tma_cc(src.gpu->cc_major, src.gpu->cc_minor); !why.empty())
                return Applicability::no(why);
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
        const std::string memory = dst.kind == VertexKind::NumaNode ? "host-pinned" : src.id == dst.id ? "local" : "peer";
        // The random cycle is the headline; the ring compares with nvbandwidth's latency tests.
        if (v_.unit == ChaseUnit::Sm && !v_.loaded)
            return {{{"memory", memory}}, {{"memory", memory}, {ChaseLayoutParam::key, ChaseLayoutParam::Ring128}}};
        return {{{"memory", memory}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        std::map<std::string, std::string> docs{
            {"memory", "local (the GPU's own memory), peer (dst GPU's memory, peer access on) or host-pinned "
                       "(cudaHostAlloc on the dst NUMA node, mapped)"}};
        if (v_.unit == ChaseUnit::Sm && !v_.loaded)
            docs[ChaseLayoutParam::key] =
                "absent: a random single cycle (the random-access latency); ring128: the nodes in address order, "
                "128 bytes apart up to 512 MiB (nvbandwidth's host_device_latency_sm layout)";
        return docs;
    }
    std::vector<AxisSpec> axes() const override {
        if (!v_.loaded) return {};
        std::vector<nlohmann::json> levels;
        for (const std::string& l : chase_load_levels()) levels.emplace_back(l);
        return {{"load", levels, "", "none: unloaded; same: copies move data the way the chased loads' data travel; "
                                     "both: and the other way too"}};
    }
    SizePolicy size_policy() const override {
        // Under load: working sets beyond any L2 (64 and 256 MiB), where every hop reaches the memory.
        if (v_.loaded) return {8, std::uint64_t{64} << 20, std::uint64_t{256} << 20, 0.5};
        return {8, 4096, std::uint64_t{4} << 30, 0};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        Variant v = v_;
        if (auto it = params.find(ChaseLayoutParam::key); it != params.end()) {
            if (it->second != ChaseLayoutParam::Ring128 || v_.unit != ChaseUnit::Sm || v_.loaded)
                throw UsageError(name() + ": unknown layout '" + it->second + "' (ring128, or none for random)");
            v.ring = true;
        }
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const bool host = dst.kind == VertexKind::NumaNode;
            const int owner = host ? cuda_ordinal(src) : cuda_ordinal(dst);
            const SizeCap cap = plan_buffers(options, max_bytes, {{owner, host ? 0u : 1u}}, host ? 1 : 0);
            return std::make_unique<LatencySession>(graph, src, dst, cap, options, v);
        });
    }

private:
    Variant v_;
};

}  // namespace

std::unique_ptr<Characterizer> make_gpumem_latency() { return std::make_unique<LatencyMethod>(Variant{}); }
std::unique_ptr<Characterizer> make_tma_latency() { return std::make_unique<LatencyMethod>(Variant{ChaseUnit::Tma, false}); }
std::unique_ptr<Characterizer> make_loaded_latency() {
    return std::make_unique<LatencyMethod>(Variant{ChaseUnit::Sm, true});
}

}  // namespace hwcomm::cuda::gpumem
