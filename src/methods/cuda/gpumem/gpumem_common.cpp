#include "methods/cuda/gpumem/gpumem_common.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/gpumem/gpumem_model.hpp"
#include "platform/clock.hpp"
#include "methods/cuda/common/device_info.hpp"

namespace hwcomm::cuda::gpumem {

GpuMemFacts gpu_mem_facts(int ordinal) {
    GpuMemFacts f;
    f.sm_count = device_attribute(cudaDevAttrMultiProcessorCount, ordinal);
    f.max_warps_per_sm = device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor, ordinal) / 32;
    f.sm_clock_khz = device_attribute(cudaDevAttrClockRate, ordinal);
    f.memory_clock_khz = device_attribute(cudaDevAttrMemoryClockRate, ordinal);
    f.bus_width_bits = device_attribute(cudaDevAttrGlobalMemoryBusWidth, ordinal);
    f.l2_bytes = device_attribute(cudaDevAttrL2CacheSize, ordinal);
    f.theoretical_gbps = hwcomm::gpumem::theoretical_dram_gbps(f.memory_clock_khz, f.bus_width_bits);
    return f;
}

nlohmann::json to_json(const GpuMemFacts& f) {
    return {{"sm_count", f.sm_count},           {"max_warps_per_sm", f.max_warps_per_sm},
            {"sm_clock_peak_khz", f.sm_clock_khz}, {"memory_clock_peak_khz", f.memory_clock_khz},
            {"bus_width_bits", f.bus_width_bits}, {"l2_bytes", f.l2_bytes},
            {"theoretical_dram_gbps", f.theoretical_gbps}};
}

KernelTimer::KernelTimer(int device, TimingMode mode)
    : device_(device), wall_(mode == TimingMode::Wall), stream_(device), start_(device), stop_(device) {}

double KernelTimer::time(const std::function<void(cudaStream_t)>& launch) {
    ScopedDevice on(device_);
    if (wall_) {
        const double t0 = steady_seconds();
        launch(stream_.get());
        stream_.synchronize();
        return steady_seconds() - t0;
    }
    start_.record(stream_);
    launch(stream_.get());
    stop_.record(stream_);
    stop_.synchronize();
    return stop_.seconds_since(start_);
}

DeviceCounter::DeviceCounter(int device) : buffer_(device, 2 * sizeof(unsigned long long)) {}

void DeviceCounter::zero(cudaStream_t stream) const {
    ScopedDevice on(buffer_.device());
    HWCOMM_CUDA_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.size(), stream));
}

unsigned long long DeviceCounter::read() const {
    ScopedDevice on(buffer_.device());
    unsigned long long v[2] = {0, 0};
    HWCOMM_CUDA_CHECK(cudaMemcpy(v, buffer_.data(), sizeof v, cudaMemcpyDeviceToHost));
    return v[0];
}

PointerChase::PointerChase(int exec, unsigned long long* memory, std::uint64_t capacity_bytes, ChaseUnit unit,
                           bool ring, bool remote)
    : exec_(exec), memory_(memory), capacity_(capacity_bytes), unit_(unit), ring_(ring), remote_(remote),
      result_(exec, sizeof(ChaseResult)) {
    const GpuMemFacts facts = gpu_mem_facts(exec);  // the facts every gpumem record states
    l2_bytes_ = facts.l2_bytes > 0 ? static_cast<std::uint64_t>(facts.l2_bytes) : 0;
    sm_count_ = facts.sm_count > 0 ? static_cast<unsigned>(facts.sm_count) : 1u;
}

void PointerChase::lay_out(std::uint64_t footprint_bytes, KernelTimer& timer) {
    if (footprint_bytes == footprint_) return;
    if (footprint_bytes > capacity_) throw MeasurementError("pointer chase: footprint above the buffer");
    // 128-byte nodes at least: one node per cache line, so no two nodes share a line.
    const auto layout = hwcomm::gpumem::chase_layout(footprint_bytes, 128);
    next_ = ring_ ? hwcomm::gpumem::chase_ring(layout.nodes)
                  : hwcomm::gpumem::chase_cycle(layout.nodes, 0x9e3779b97f4a7c15ull ^ footprint_bytes);
    stride_bytes_ = layout.node_stride_bytes;
    position_ = 0;
    DeviceBuffer next_dev(exec_, next_.size() * sizeof(std::uint32_t));
    ScopedDevice on(exec_);
    HWCOMM_CUDA_CHECK(cudaMemcpyAsync(next_dev.data(), next_.data(), next_dev.size(), cudaMemcpyHostToDevice,
                                      timer.stream()));
    launch_chase_scatter(timer.stream(), memory_, reinterpret_cast<const std::uint32_t*>(next_dev.data()),
                         layout.nodes, stride_bytes_ / 8, static_cast<int>(sm_count_));
    timer.synchronize();
    footprint_ = footprint_bytes;
    last_ns_per_load_ = 0;  // a new footprint: its first run is one segment
}

PointerChase::Result PointerChase::run(std::uint64_t steps, KernelTimer& timer) {
    auto* out = reinterpret_cast<ChaseResult*>(result_.data());
    Result r;
    r.start_node = position_;
    const std::uint64_t words = stride_bytes_ / 8;
    const auto plan = hwcomm::gpumem::chase_segments(remote_, footprint_, steps, last_ns_per_load_, sm_count_);
    const unsigned segments = std::min(plan.count, kChaseResultSegments);
    const std::uint64_t sample = plan.rotate ? runs_++ : 0;
    std::vector<std::uint64_t> seg_steps(segments, steps / segments);
    seg_steps.back() += steps % segments;
    r.seconds = timer.time([&](cudaStream_t s) {
        for (unsigned j = 0; j < segments; ++j) {
            ChaseSegment seg;
            seg.start = position_ * words;
            seg.warm = plan.warm_hops;
            seg.steps = seg_steps[j];
            seg.segment = j;
            seg.block = plan.rotate ? hwcomm::gpumem::chase_block(sample, j, segments, sm_count_) : 0;
            seg.grid = plan.rotate ? sm_count_ : 1;
            if (unit_ == ChaseUnit::Tma) launch_tma_chase(s, memory_, seg, out);
            else launch_chase(s, memory_, seg, out);
        }
    });
    ChaseResult host;
    ScopedDevice on(exec_);
    HWCOMM_CUDA_CHECK(cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost));
    r.cycles_per_load = static_cast<double>(host.cycles) / static_cast<double>(steps);
    r.ns_per_load = static_cast<double>(host.ns) / static_cast<double>(steps);
    r.last_word = host.last;
    r.walked = steps + segments * plan.warm_hops;
    r.segments = segments;
    std::set<unsigned> sms;
    for (unsigned j = 0; j < segments; ++j) {
        const double ns = static_cast<double>(host.segment_ns[j]) / static_cast<double>(std::max<std::uint64_t>(seg_steps[j], 1));
        r.nearest_sm_ns = j == 0 ? ns : std::min(r.nearest_sm_ns, ns);
        r.farthest_sm_ns = j == 0 ? ns : std::max(r.farthest_sm_ns, ns);
        sms.insert(host.segment_sm[j]);
    }
    r.distinct_sms = static_cast<unsigned>(sms.size());
    if (r.ns_per_load > 0) last_ns_per_load_ = r.ns_per_load;
    if (host.last % words == 0 && host.last / words < next_.size()) position_ = static_cast<std::uint32_t>(host.last / words);
    return r;
}

void PointerChase::warm(std::uint64_t steps, KernelTimer& timer) {
    constexpr std::uint64_t kCacheableNodes = 1u << 19;
    // Up to here once around the cycle is a few ms and also fills the chasing
    // SM's L1 (256 KiB); beyond it one block reads every node with many loads
    // in flight instead: the same lines in L2, where one thread's walk around
    // a 32 MiB cycle of host memory took 0.3 s (1.2 us a hop) of every such point.
    // Only up to half the L2 (Hopper's L2 is two partitions): between half and
    // all of it the walk leaves each node a whole cycle old on the chase's
    // side, as the timed walk will find it (an H100's random 32 MiB cycle read
    // 271 ns a hop walked, 173 for the first samples after a read in address order).
    constexpr std::uint64_t kTouchAboveBytes = std::uint64_t{1} << 20;
    const bool cacheable = l2_bytes_ ? footprint_ <= l2_bytes_ : next_.size() <= kCacheableNodes;
    const bool touch = l2_bytes_ && footprint_ > kTouchAboveBytes && footprint_ <= l2_bytes_ / 2;
    if (!touch) {
        run(cacheable ? std::max<std::uint64_t>(next_.size(), steps) : steps, timer);
        return;
    }
    {
        ScopedDevice on(exec_);
        launch_chase_touch(timer.stream(), memory_, static_cast<std::uint32_t>(next_.size()), stride_bytes_ / 8,
                           reinterpret_cast<unsigned long long*>(result_.data()));
        timer.synchronize();
    }
    run(steps, timer);  // the chasing thread's own TLB and clocks, as before a timed walk
}

std::string PointerChase::check(const Result& r) const {
    const std::uint64_t expected = std::uint64_t{hwcomm::gpumem::walk(next_, r.start_node, r.walked)} * (stride_bytes_ / 8);
    if (r.last_word == expected) return "";
    return "the chase ended at word " + std::to_string(r.last_word) + ", the cycle at word " +
           std::to_string(expected);
}

Applicability on_gpu_applicable(const Vertex& src, const Vertex& dst) {
    if (auto why = why_not_cuda_gpu(src); !why.empty()) return Applicability::no(why);
    if (src.id != dst.id) return Applicability::no("measures one GPU's own memory: src and dst are the same GPU");
    return Applicability::yes();
}

}  // namespace hwcomm::cuda::gpumem
