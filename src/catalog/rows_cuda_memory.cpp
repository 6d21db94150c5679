// Rows of CUDA methods on mapped, managed and GPU memory: zero-copy kernels,
// unified memory, and the gpumem microbenchmarks (hwcomm gpumem).
#include "catalog/method_catalog.hpp"
#include "catalog/row_helpers.hpp"

namespace hwcomm {

std::vector<MethodRow> cuda_memory_rows() {
    using namespace rows;
    namespace n = method_name;
    const std::vector<ParamDecl> mapped{{HostMem::key, {HostMem::Pinned, HostMem::Registered}}, numa_param(),
                                        peer_on_param()};
    const AxisDecl element_bytes{"element_bytes", "bytes"};
    return {
        {.name = n::kZeroCopyRead,
         .family = MethodFamily::ZeroCopy,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kGpu,
         .params = mapped,
         .solo = solo_by_lane_direction()},
        {.name = n::kZeroCopyWrite,
         .family = MethodFamily::ZeroCopy,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kNumaOrGpu,
         .params = mapped,
         .solo = solo_by_lane_direction()},
        {.name = n::kUmPrefetch,
         .family = MethodFamily::UnifiedMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kGpuOrNuma,
         .params = {numa_param()},
         .solo = solo_by_lane_direction(),
         .plan = {.heavy = true}},
        {.name = n::kUmDemand,
         .family = MethodFamily::UnifiedMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kGpuOrNuma,
         .params = {numa_param()},
         .solo = solo_by_lane_direction(),
         .plan = {.heavy = true}},
        // gpumem: no link is measured, so no solo curve and no study series.
        {.name = n::kGpumemTimeline,
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpu,
         .axes = {element_bytes, {"warps_per_block", "warps"}},
         .headline = {HeadlineKind::MetricMedian, "warp_latency_ns_median", "ns"},
         .view = MethodView::GpumemTimeline,
         // A GPU model's own warp timeline: each member GPU's memory is confirmed
         // by memcpy-d2d and gpumem-latency within it (2.9 s per confirmation saved).
         .plan = {.ladder = false, .representatives_only = true, .heavy = true}},
        {.name = n::kGpumemOccupancy,
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpu,
         .axes = {element_bytes, {"ilp", "loads"}, {"warps_per_sm", "warps"}},
         .headline = {HeadlineKind::BestOverAxes, "bandwidth_gbps", "GB/s"},
         .view = MethodView::GpumemOccupancy,
         .plan = {.ladder = false, .heavy = true}},
        {.name = n::kGpumemStride,
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpu,
         .axes = {element_bytes, {"stride", "elements"}},
         .headline = {HeadlineKind::BestOverAxes, "bandwidth_gbps", "GB/s"},
         .view = MethodView::GpumemStride,
         .plan = {.ladder = false, .heavy = true}},
        {.name = n::kGpumemLatency,
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpuOrNuma,
         .params = {{MemoryParam::key, {MemoryParam::Local, MemoryParam::PeerGpu, MemoryParam::HostPinned}},
                    {ChaseLayoutParam::key, {ChaseLayoutParam::Ring128}}},
         .headline = {HeadlineKind::MetricAtLargest, "latency_ns", "ns"},
         .view = MethodView::GpumemLatency,
         // The ring layout is nvbandwidth's view of a link the random chase confirms.
         .plan = {.ladder = false, .representatives_only_when = {{ChaseLayoutParam::key, ChaseLayoutParam::Ring128}}, .heavy = true}},
        {.name = n::kGpumemTmaLatency,  // the same chase, each hop a bulk copy by the TMA unit (sm_90+)
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpuOrNuma,
         .params = {{MemoryParam::key, {MemoryParam::Local, MemoryParam::PeerGpu, MemoryParam::HostPinned}}},
         .headline = {HeadlineKind::MetricAtLargest, "latency_ns", "ns"},
         .view = MethodView::GpumemLatency,
         // The TMA unit's hops cross the links gpumem-latency confirms member by member.
         .plan = {.ladder = false, .representatives_only = true, .heavy = true}},
        {.name = n::kGpumemLoadedLatency,  // the chase while copies load its path, beside it unloaded
         .family = MethodFamily::GpuMemory,
         .build = MethodBuild::Cuda,
         .src_kinds = kGpu,
         .dst_kinds = kGpuOrNuma,
         .params = {{MemoryParam::key, {MemoryParam::Local, MemoryParam::PeerGpu, MemoryParam::HostPinned}}},
         .axes = {{"load", ""}},
         .headline = {HeadlineKind::MetricAtLargest, "latency_ns", "ns"},
         .view = MethodView::GpumemLoadedLatency,
         // Like under-load and priority: a loaded link per class, its likeness confirmed unloaded.
         .plan = {.ladder = false, .representatives_only = true, .heavy = true}},
    };
}

}  // namespace hwcomm
