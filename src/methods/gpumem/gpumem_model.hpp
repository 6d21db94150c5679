#pragma once
// The arithmetic behind the GPU memory microbenchmarks (hwcomm gpumem), kept
// free of CUDA so CI tests it: Little's-law bounds, 32-byte sectors per warp
// request of a strided load, the pointer-chase cycle and its layout, and the
// per-SM view of per-warp clock records.
#include <cstdint>
#include <vector>

namespace hwcomm::gpumem {

inline constexpr unsigned kWarpSize = 32;
inline constexpr unsigned kSectorBytes = 32;

// Theoretical DRAM bandwidth in GB/s: memory clock x 2 (double data rate) x bus width.
double theoretical_dram_gbps(double memory_clock_khz, int bus_width_bits);

// Little's law: bytes that must be in flight to sustain `bandwidth_gbps` at
// `latency_ns` (GB/s x ns = bytes).
double bytes_in_flight_needed(double latency_ns, double bandwidth_gbps);

// The bandwidth `resident_warps` (on the whole GPU) can sustain when each keeps
// `bytes_in_flight_per_warp` outstanding for `latency_ns`, capped at `peak_gbps`
// (no cap when peak_gbps <= 0).
double littles_law_bound_gbps(double resident_warps, double bytes_in_flight_per_warp, double latency_ns,
                              double peak_gbps);
// Whether the uncapped Little's-law bound lies below the peak: the point is latency-bound.
bool latency_bound(double resident_warps, double bytes_in_flight_per_warp, double latency_ns, double peak_gbps);

// Distinct 32-byte sectors one warp request touches when lane l loads the
// element at index l x stride (elements of `element_bytes`, aligned).
unsigned sectors_per_warp_request(std::uint64_t stride_elements, unsigned element_bytes);
// Sectors requested by the loads a[(stride x i) % n] for i in [0, n), one
// request per warp of 32 consecutive i (n a multiple of 32 and of stride for
// the count to be exact; the wrap is not counted apart).
std::uint64_t strided_sectors(std::uint64_t n, std::uint64_t stride_elements, unsigned element_bytes);

// A random single cycle through `nodes` nodes (Sattolo's algorithm): next[i]
// is the node after i; following next from any node visits every node once
// before coming back. Deterministic for a seed.
std::vector<std::uint32_t> chase_cycle(std::uint32_t nodes, std::uint64_t seed);
// The ring in address order: next[i] = i + 1, the last back to 0 (nvbandwidth's
// latency layout: consecutive steps of one node stride).
std::vector<std::uint32_t> chase_ring(std::uint32_t nodes);
// Whether `next` is one cycle through all its nodes.
bool is_single_cycle(const std::vector<std::uint32_t>& next);
// The node reached after `steps` steps from `start`.
std::uint32_t walk(const std::vector<std::uint32_t>& next, std::uint32_t start, std::uint64_t steps);

// How a footprint is laid out for the chase: nodes `node_stride_bytes` apart
// (one 8-byte pointer each), at least `min_stride` apart and no more than
// `max_nodes` of them, covering the footprint.
struct ChaseLayout {
    std::uint64_t node_stride_bytes = 0;
    std::uint32_t nodes = 0;
};
ChaseLayout chase_layout(std::uint64_t footprint_bytes, std::uint64_t min_stride = 64,
                         std::uint32_t max_nodes = 1u << 22);

// Which SMs chase (issue 22): the latency of a dependent load depends on the
// SM that issues it: on an H100 a peer GPU's memory over NVLink reads 795-811
// ns from half of the SMs and 845-860 from the other half
// (scripts/bench/latency_probe.cu --per-sm, docs/fidelity.md). For memory
// beyond the GPU (`remote`: a peer's, the host's) and a footprint beyond
// every SM-private cache (kChaseRotateFromBytes or more) a sample's loads are
// split into segments chased one after the other from SMs spread over the
// GPU, each from where the last stopped, and the next sample starts one SM
// on: the figure is the mean over SMs, as nvbandwidth's (one launch per SM)
// is. The GPU's own memory keeps one SM: there the SM also decides which L2
// partition holds the lines its warm-up read (chased from many SMs, an 8 MiB
// cycle one SM had read read 171-176 ns a hop against 139 from that SM).
inline constexpr std::uint64_t kChaseRotateFromBytes = std::uint64_t{1} << 20;  // 4x the largest L1 to date (256 KiB)
inline constexpr unsigned kMaxChaseSegments = 16;
// Shortest segment worth timing by the globaltimer (its ticks are coarse on some GPUs).
inline constexpr double kMinChaseSegmentNs = 64e3;
// Untimed hops each segment walks first on its SM: its TLBs (32 random hops
// reach each 2 MiB page of a 16 MiB footprint with 98.6% chance).
inline constexpr std::uint64_t kChaseSegmentWarmHops = 32;
struct ChaseSegments {
    unsigned count = 1;          // segments of one sample, each on its own SM
    std::uint64_t warm_hops = 0; // untimed hops at the start of each segment
    bool rotate = false;         // SMs move on from sample to sample
};
// expected_ns_per_load: the last measured (0: unknown, one segment).
ChaseSegments chase_segments(bool remote, std::uint64_t footprint_bytes, std::uint64_t steps,
                             double expected_ns_per_load, unsigned sm_count);
// The block (of a grid of one block per SM) that chases segment `segment` of
// sample `sample`: segments spread evenly over the blocks, each sample one on.
unsigned chase_block(std::uint64_t sample, unsigned segment, unsigned segments, unsigned sm_count);

// One warp's record from the timeline kernel: SM clock before and after its loads.
struct WarpRecord {
    std::uint32_t sm = 0;
    std::uint32_t block = 0;
    std::uint32_t warp = 0;
    std::uint64_t start = 0;  // clock64 cycles (relative per SM after make_relative_per_sm)
    std::uint64_t stop = 0;
};
// Each SM has its own clock: shifts every SM's records so its earliest start is 0.
void make_relative_per_sm(std::vector<WarpRecord>& records);
// Block ids are those of one launch (dense from 0). Per SM, for every block
// that started after some block of that SM had ended:
// its first warp's start minus the latest block end before it (cycles): the
// cost of retiring a block and launching the next into its place.
std::vector<double> block_gaps(const std::vector<WarpRecord>& records);
// The warps a timeline keeps raw: of each of the `sms` lowest SM ids, its
// first `per_sm` warps by start; all of them ordered by start.
std::vector<WarpRecord> first_warps_of_lowest_sms(const std::vector<WarpRecord>& records, std::size_t sms,
                                                  std::size_t per_sm);

}  // namespace hwcomm::gpumem
