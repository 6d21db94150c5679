#pragma once
// One row of the method catalog: what every layer needs to know about a
// method without decoding its name. The method (src/methods) registers
// against its row; list, analyze, model, report, import and export read the
// row. docs: DEVELOPERS.md "Adding a method".
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm {

using RowParams = std::map<std::string, std::string>;

// How the method moves or touches bytes; listing and grouping read it.
enum class MethodFamily {
    CpuMemory,      // CPU threads read, write or copy host memory
    Disk,           // a file on a disk into host memory
    CopyEngine,     // one cudaMemcpy* between host and GPU or two GPUs
    SmCopy,         // one copy kernel through peer or mapped pointers
    TmaCopy,        // bulk copies by the Hopper TMA unit (sm_90+), staged through shared memory
    Duplex,         // two copies at once, opposite ways over one route
    Concurrency,    // several copies at once (sets of endpoints)
    ZeroCopy,       // a kernel loading or storing mapped memory
    UnifiedMemory,  // managed memory: prefetch or demand paging
    Load,           // a transfer against background copies
    GpuMemory,      // microbenchmarks of one GPU's memory system
    Mpi,            // between ranks on two nodes
    TestFault,      // test only: injected faults
};

// Which build provides the method.
enum class MethodBuild {
    Always,        // every build
    Cuda,          // built with CUDA
    Mpi,           // built with MPI (hwcomm run --mpi)
    CudaTestOnly,  // built with CUDA, registered only under HWCOMM_TEST_FAULT_METHODS=1
};

// One parameter of the method's records and its allowed values
// (method_params.hpp); empty values: a number or list (numa, loads).
struct ParamDecl {
    std::string key;
    std::vector<std::string> values;
};

// An axis besides bytes (every point takes one of its values).
struct AxisDecl {
    std::string name;
    std::string unit;  // "elements", "warps", "" ...
};

// Whether a point's bandwidth counts both directions' bytes.
enum class DuplexConvention {
    None,                       // one direction
    Sum,                        // both directions' bytes over the time of both
    OneDirectionUnderOpposite,  // one direction's bytes while the other way is busy
};
struct Duplex {
    DuplexConvention convention = DuplexConvention::None;
    // Duplex only in records with this parameter value (mpi: direction=bi); "" = every record.
    std::string when_key, when_value;
};

// The single-transfer curve a lane of this method stands for in the model
// (M(C,U): a lane of a concurrency record, a load lane). Rules are tried in
// order; the first whose direction and `when` params match the lane wins.
enum class LaneDirection { Any, HostToDevice, DeviceToHost, DeviceToDevice };
struct SoloRule {
    LaneDirection direction = LaneDirection::Any;
    RowParams when;                  // params the lane must carry
    std::string method;              // "" = the lane's own method
    RowParams params;                // params of the equivalent curve
    std::vector<std::string> keep;   // params copied from the lane (its value up to ':')
    RowParams defaults;              // for a kept key the lane lacks
};

// The one number a printer shows for a record (progress line, summary).
enum class HeadlineKind {
    PeakBandwidth,    // best bandwidth over the size sweep (cache mark when cache-resident)
    BestOverAxes,     // best bandwidth over the axis values, with the values that gave it
    MetricAtLargest,  // a metric at the largest size (latency beyond the caches)
    MetricMedian,     // the median of a metric over the points
    TimeAtSmallest,   // one transfer's completion time at the smallest size (priority: a wait included)
};
struct Headline {
    HeadlineKind kind = HeadlineKind::PeakBandwidth;
    std::string metric = "bandwidth_gbps";  // Point::metrics key, or bandwidth_gbps
    std::string unit = "GB/s";
};

// Which section of analyze, summary and the report shows the records besides
// the bandwidth curves every method has.
enum class MethodView {
    Curve,            // bandwidth against size
    UnderLoadTable,   // alone vs loaded, per route
    PriorityTable,    // alone / equal / high priority, per route
    GpumemOccupancy,
    GpumemStride,
    GpumemTimeline,
    GpumemLatency,
    GpumemLoadedLatency,  // the chase under load beside the unloaded one
    CpuLatency,        // the ladder and the idle latency matrix (docs/cpu-methods.md)
    CpuLoadedLatency,  // latency against the bandwidth of other cores
    CpuMix,            // the read/write-mix bandwidth matrix
};

// The study's series a record of this method feeds (analyze's tables).
enum class StudySeries {
    None,
    HostToDevice,  // cpu-gpu link, h2d, by host allocation
    DeviceToHost,  // cpu-gpu link, d2h
    PeerCopy,      // gpu-gpu, peer on/off
    DeviceCopy,    // gpu-gpu when a file has no PeerCopy method
    HostStaging,   // cpu-cpu, pageable to pinned
};

// How a Comm|Scope benchmark's arguments name the endpoints.
enum class ImportShape {
    NumaGpu,        // log2, numa, gpu
    GpuNuma,        // log2, numa, gpu
    NumaNuma,       // log2, src numa, dst numa
    NumaGpuGpu,     // log2, numa, src gpu, dst gpu
    GpuGpu,         // log2, src gpu, dst gpu
    HostToOneGpu,   // [gpu,] log2: host -> gpu
    OneGpuToHost,   // [gpu,] log2: gpu -> host
    TwoGpus,        // [src gpu, dst gpu, ] log2
};
struct ImportName {
    std::string benchmark;  // Comm|Scope's base name, "NUMA_Memcpy_PinnedToGPU"
    ImportShape shape;
    RowParams params;       // fixed params of the imported record
};

// How `hwcomm run`'s plan treats the method's records (issue 21; docs/cli.md "The plan").
struct PlanTraits {
    bool ladder = true;  // a full sweep climbs the adaptive ladder (its points are one bandwidth-vs-size curve)
    // The ladder measures third-octave sizes where its curve bends (cache edges, the knee); false: octaves only.
    bool intermediates = true;
    std::vector<std::string> shared_ladder_params;  // records that differ only in these share one ladder
    bool representatives_only = false;  // no confirmations: only class representatives are measured
    // Records with one of these parameter values: representatives only (a
    // second view of a link another record of the method already confirms).
    std::vector<std::pair<std::string, std::string>> representatives_only_when;
    bool heavy = false;                 // --budget's step 2 leaves its confirmations for --resume
};

struct MethodRow {
    std::string name;  // method_names.hpp
    MethodFamily family;
    MethodBuild build = MethodBuild::Always;
    std::vector<VertexKind> src_kinds, dst_kinds;
    std::vector<ParamDecl> params;
    std::vector<AxisDecl> axes;
    Duplex duplex;
    std::vector<SoloRule> solo;
    Headline headline;
    MethodView view = MethodView::Curve;
    StudySeries study = StudySeries::None;
    std::vector<ImportName> import_names;
    std::string report_group;  // charts shared with other methods ("d2d"); "" = its own
    // Buffers of the transfer's size a CPU-side transfer keeps in the cache
    // (a copy: source and destination); the cache-residency check multiplies by it.
    unsigned working_set_buffers = 1;
    PlanTraits plan;
};

const char* to_string(MethodFamily family);
const char* to_string(MethodBuild build);
const char* to_string(DuplexConvention convention);
const char* to_string(HeadlineKind kind);
const char* to_string(MethodView view);
const char* to_string(StudySeries series);

// The row's own duplex rule applied to one record's params.
bool is_duplex(const MethodRow& row, const RowParams& record_params);

// A row that may be absent (a method no catalog knows) and its family.
inline bool in_family(const MethodRow* row, MethodFamily family) { return row && row->family == family; }

}  // namespace hwcomm
