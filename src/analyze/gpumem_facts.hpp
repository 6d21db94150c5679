#pragma once
// What the gpumem-* records say (docs/gpumem.md), shared by `hwcomm summary`
// and the HTML report: their points lie along axes other than the transfer
// size (warps per SM, ILP, stride, warps per block) or, for gpumem-latency,
// along the working set with the latency as a metric, so the bandwidth-curve
// metrics do not describe them. Reads only records (core/results.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::analyze {

// Records of the GPU memory family (catalog rows, view Gpumem*): summarised here, not as size curves.

// A point's metric / numeric axis value; nullopt when absent or not a number.
std::optional<double> metric_of(const Point& point, const std::string& name);
std::optional<double> axis_of(const Point& point, const std::string& name);

// gpumem-occupancy: one series per (element size, ILP), points by warps per SM.
struct OccupancyPoint {
    int warps_per_sm = 0;
    double gbps = 0;                    // achieved read bandwidth
    std::optional<double> bound_gbps;   // Little's-law bound, capped by the theoretical bandwidth
    bool latency_bound = false;         // the uncapped bound is below the theoretical bandwidth
};
struct OccupancySeries {
    int element_bytes = 0, ilp = 0;
    std::vector<OccupancyPoint> points;  // sorted by warps per SM, ok points only
};
struct OccupancyFacts {
    std::vector<OccupancySeries> series;  // by element size, then ILP
    std::optional<double> theoretical_gbps, latency_ns;
    // The best point of the record.
    double peak_gbps = 0;
    int peak_warps_per_sm = 0, peak_ilp = 0, peak_element_bytes = 0;
    bool peak_latency_bound = false;
};
OccupancyFacts occupancy_facts(const Record& record);
// Fewest warps per SM at which the series is bandwidth-bound (its bound reaches
// the theoretical bandwidth); nullopt when every point is latency-bound.
std::optional<int> first_bandwidth_bound(const OccupancySeries& series);

// gpumem-stride: per element size, points by stride.
struct StridePoint {
    int stride = 0;
    double gbps = 0;                          // effective: elements x element bytes over the time
    std::optional<double> sectors_per_request_theory;
    std::optional<double> sectors_per_request_ncu;  // from metric sectors_ncu when Nsight Compute measured it
};
struct StrideSeries {
    int element_bytes = 0;
    std::vector<StridePoint> points;  // sorted by stride
};
std::vector<StrideSeries> stride_facts(const Record& record);

// gpumem-timeline: one row per (element size, warps per block).
struct TimelineRow {
    int element_bytes = 0, warps_per_block = 0;
    std::optional<double> median_cycles, median_ns, block_gap_cycles, block_gap_ns, sm_clock_mhz;
    std::optional<double> warps;
};
std::vector<TimelineRow> timeline_facts(const Record& record);

// gpumem-latency: the latency per working set, and its plateaus. For local
// memory the windows are L1, L2 and DRAM; for peer or host memory the same
// working sets sit in the remote side's caches or its memory.
struct LatencyLadder {
    std::string memory;                         // params "memory": local, peer, host-pinned
    std::vector<std::pair<std::uint64_t, double>> ns_by_working_set;  // sorted by size
    std::uint64_t l2_bytes = 0;                 // the source GPU's L2 (context.gpumem), or 50 MiB assumed
    std::optional<double> smallest_ns;          // <= 16 KiB: L1
    std::optional<double> l2_window_ns;         // median over 1 MiB ... L2 / 2: L2
    std::optional<double> beyond_l2_ns;         // median over >= 4 x L2: DRAM (TLB misses grow it further)
    // Host or peer chases from several SMs (since 3fa2cbc, docs/gpumem.md
    // "Which SM chases"): per working set the sample's fastest and slowest SM
    // (medians over the samples; sizes chased by one SM have none), their
    // medians over the L2 window, and the most SMs a sample used.
    std::vector<std::pair<std::uint64_t, double>> nearest_sm_by_working_set, farthest_sm_by_working_set;
    std::optional<double> nearest_sm_ns, farthest_sm_ns;
    unsigned chase_sms = 0;
};
LatencyLadder latency_ladder(const Record& record);

// gpumem-loaded-latency: per load level (axis "load": none, same, both), the
// latency at each working set and what the loads moved meanwhile (U).
struct LoadedLatency {
    std::string load;
    std::vector<std::pair<std::uint64_t, double>> ns_by_working_set;         // sorted by size
    std::vector<std::pair<std::uint64_t, double>> load_gbps_by_working_set;  // extras.load_gbps, where measured
};
std::vector<LoadedLatency> loaded_latency(const Record& record);

}  // namespace hwcomm::analyze
