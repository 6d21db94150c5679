// Rows of the methods every build has: CPU threads on host memory, disk reads.
#include "catalog/method_catalog.hpp"
#include "catalog/row_helpers.hpp"

namespace hwcomm {

std::vector<MethodRow> cpu_and_disk_rows() {
    using namespace rows;
    namespace n = method_name;
    return {
        {.name = n::kCpuRead, .family = MethodFamily::CpuMemory, .src_kinds = kNuma, .dst_kinds = kNuma},
        {.name = n::kCpuWrite,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .params = {stores_param()}},
        {.name = n::kCpuCopy,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .params = {stores_param()},
         .working_set_buffers = 2},
        {.name = n::kCpuTriad,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .params = {stores_param()},
         .working_set_buffers = 3},
        // Points along the working set with the latency as a metric: the CPU memory section, not a bandwidth curve.
        {.name = n::kCpuLatency,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .headline = {HeadlineKind::MetricAtLargest, "latency_ns", "ns"},
         .view = MethodView::CpuLatency,
         .plan = {.ladder = false}},  // its steps at the cache sizes are the point: every size
        {.name = n::kCpuLoadedLatency,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .axes = {{"load_workers", "cores"}},
         .headline = {HeadlineKind::MetricMedian, "latency_ns", "ns"},
         .view = MethodView::CpuLoadedLatency},
        {.name = n::kCpuBandwidthMix,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .axes = {{"mix", "reads:writes"}},
         .headline = {HeadlineKind::BestOverAxes, "bandwidth_gbps", "GB/s"},
         .view = MethodView::CpuMix},
        {.name = n::kCpuMemcpy,
         .family = MethodFamily::CpuMemory,
         .src_kinds = kNuma,
         .dst_kinds = kNuma,
         .params = {{Threads::key, {Threads::Single, Threads::Multi}}},
         .solo = solo_itself(),
         .working_set_buffers = 2},
        {.name = n::kDiskRead,
         .family = MethodFamily::Disk,
         .src_kinds = {VertexKind::BlockDevice},
         .dst_kinds = kNuma,
         .params = {{DiskIoParam::key, {DiskIoParam::Buffered, DiskIoParam::Direct, DiskIoParam::Fread}}},
         // Octaves only: the first io mode's climb picks the sizes all three
         // measure, and on a drifting disk (cv 25-100% per point on the GPU
         // machines' virtio disks) its ramp "bent" at six third-octave sizes
         // between 4 and 32 MiB, 3.3 s of an H100 default run's 15 s of
         // disk-read (fd69b84). A disk has no cache edge there: the page cache
         // is dropped before each sample, the ramp is readahead and queue depth.
         .plan = {.intermediates = false, .shared_ladder_params = {"io"}, .heavy = true}},
    };
}

}  // namespace hwcomm
