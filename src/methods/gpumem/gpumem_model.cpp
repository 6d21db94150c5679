#include "methods/gpumem/gpumem_model.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace hwcomm::gpumem {

double theoretical_dram_gbps(double memory_clock_khz, int bus_width_bits) {
    return memory_clock_khz * 1e3 * 2.0 * (bus_width_bits / 8.0) / 1e9;
}

double bytes_in_flight_needed(double latency_ns, double bandwidth_gbps) { return latency_ns * bandwidth_gbps; }

double littles_law_bound_gbps(double resident_warps, double bytes_in_flight_per_warp, double latency_ns,
                              double peak_gbps) {
    if (!(latency_ns > 0)) throw std::invalid_argument("Little's law needs a positive latency");
    const double bound = resident_warps * bytes_in_flight_per_warp / latency_ns;  // bytes/ns = GB/s
    return peak_gbps > 0 ? std::min(bound, peak_gbps) : bound;
}

bool latency_bound(double resident_warps, double bytes_in_flight_per_warp, double latency_ns, double peak_gbps) {
    return littles_law_bound_gbps(resident_warps, bytes_in_flight_per_warp, latency_ns, 0) < peak_gbps;
}

unsigned sectors_per_warp_request(std::uint64_t stride_elements, unsigned element_bytes) {
    std::set<std::uint64_t> sectors;
    for (std::uint64_t lane = 0; lane < kWarpSize; ++lane) {
        const std::uint64_t first = lane * stride_elements * element_bytes;
        const std::uint64_t last = first + element_bytes - 1;
        for (std::uint64_t s = first / kSectorBytes; s <= last / kSectorBytes; ++s) sectors.insert(s);
    }
    return static_cast<unsigned>(sectors.size());
}

std::uint64_t strided_sectors(std::uint64_t n, std::uint64_t stride_elements, unsigned element_bytes) {
    return n / kWarpSize * sectors_per_warp_request(stride_elements, element_bytes);
}

std::vector<std::uint32_t> chase_cycle(std::uint32_t nodes, std::uint64_t seed) {
    std::vector<std::uint32_t> order(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) order[i] = i;
    std::mt19937_64 rng(seed);
    // Sattolo: swapping only with earlier positions yields one cycle.
    for (std::uint32_t i = nodes; i > 1; --i) {
        std::uniform_int_distribution<std::uint32_t> pick(0, i - 2);
        std::swap(order[i - 1], order[pick(rng)]);
    }
    std::vector<std::uint32_t> next(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) next[i] = order[i];
    return next;
}

std::vector<std::uint32_t> chase_ring(std::uint32_t nodes) {
    std::vector<std::uint32_t> next(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) next[i] = i + 1 == nodes ? 0 : i + 1;
    return next;
}

bool is_single_cycle(const std::vector<std::uint32_t>& next) {
    if (next.empty()) return false;
    std::vector<bool> seen(next.size(), false);
    std::uint32_t at = 0;
    for (std::size_t step = 0; step < next.size(); ++step) {
        if (at >= next.size() || seen[at]) return false;
        seen[at] = true;
        at = next[at];
    }
    return at == 0;
}

std::uint32_t walk(const std::vector<std::uint32_t>& next, std::uint32_t start, std::uint64_t steps) {
    std::uint32_t at = start;
    for (std::uint64_t i = 0; i < steps % next.size(); ++i) at = next[at];
    return at;
}

ChaseSegments chase_segments(bool remote, std::uint64_t footprint_bytes, std::uint64_t steps,
                             double expected_ns_per_load, unsigned sm_count) {
    ChaseSegments out;
    if (!remote || footprint_bytes < kChaseRotateFromBytes || sm_count < 2) return out;
    out.rotate = true;
    out.warm_hops = kChaseSegmentWarmHops;
    if (expected_ns_per_load > 0 && steps > 0) {
        const double fit = static_cast<double>(steps) * expected_ns_per_load / kMinChaseSegmentNs;
        out.count = static_cast<unsigned>(std::clamp(std::floor(fit), 1.0, double(std::min(kMaxChaseSegments, sm_count))));
        out.count = static_cast<unsigned>(std::min<std::uint64_t>(out.count, steps));
    }
    return out;
}

unsigned chase_block(std::uint64_t sample, unsigned segment, unsigned segments, unsigned sm_count) {
    if (sm_count == 0) return 0;
    const std::uint64_t spread = static_cast<std::uint64_t>(segment) * sm_count / std::max(segments, 1u);
    return static_cast<unsigned>((sample + spread) % sm_count);
}

ChaseLayout chase_layout(std::uint64_t footprint_bytes, std::uint64_t min_stride, std::uint32_t max_nodes) {
    ChaseLayout l;
    l.node_stride_bytes = std::max<std::uint64_t>(min_stride, 8);
    while (footprint_bytes / l.node_stride_bytes > max_nodes) l.node_stride_bytes *= 2;
    l.nodes = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, footprint_bytes / l.node_stride_bytes));
    return l;
}

// Ids are dense (SM ids, block indexes of one launch): vectors indexed by id, not maps:
// a sample has half a million warps.
void make_relative_per_sm(std::vector<WarpRecord>& records) {
    std::uint32_t max_sm = 0;
    for (const auto& r : records) max_sm = std::max(max_sm, r.sm);
    std::vector<std::uint64_t> earliest(std::size_t{max_sm} + 1, ~0ull);
    for (const auto& r : records) earliest[r.sm] = std::min(earliest[r.sm], r.start);
    for (auto& r : records) {
        r.start -= earliest[r.sm];
        r.stop -= earliest[r.sm];
    }
}

std::vector<double> block_gaps(const std::vector<WarpRecord>& records) {
    struct Span {
        std::uint64_t start = ~0ull, stop = 0;
        std::uint32_t sm = 0;
        bool seen = false;
    };
    std::uint32_t max_block = 0, max_sm = 0;
    for (const auto& r : records) {
        max_block = std::max(max_block, r.block);
        max_sm = std::max(max_sm, r.sm);
    }
    std::vector<Span> blocks(records.empty() ? 0 : std::size_t{max_block} + 1);
    for (const auto& r : records) {
        Span& s = blocks[r.block];
        s.start = std::min(s.start, r.start);
        s.stop = std::max(s.stop, r.stop);
        s.sm = r.sm;
        s.seen = true;
    }
    std::vector<std::vector<std::uint64_t>> ends(std::size_t{max_sm} + 1);  // per SM, sorted below
    for (const auto& s : blocks)
        if (s.seen) ends[s.sm].push_back(s.stop);
    for (auto& e : ends) std::sort(e.begin(), e.end());
    std::vector<double> gaps;
    for (const auto& s : blocks) {
        if (!s.seen) continue;
        const auto& e = ends[s.sm];
        auto it = std::upper_bound(e.begin(), e.end(), s.start);  // first end after the start
        if (it == e.begin()) continue;  // first wave: no block of this SM had ended yet
        gaps.push_back(static_cast<double>(s.start - *std::prev(it)));
    }
    return gaps;
}

std::vector<WarpRecord> first_warps_of_lowest_sms(const std::vector<WarpRecord>& records, std::size_t sms,
                                                  std::size_t per_sm) {
    std::vector<std::uint32_t> lowest;  // ascending, at most `sms`
    for (const auto& x : records) {
        const auto at = std::lower_bound(lowest.begin(), lowest.end(), x.sm);
        if (at != lowest.end() && *at == x.sm) continue;
        if (lowest.size() < sms) {
            lowest.insert(at, x.sm);
        } else if (at != lowest.end()) {
            lowest.insert(at, x.sm);
            lowest.pop_back();
        }
    }
    std::vector<std::vector<WarpRecord>> by_sm(lowest.size());
    for (const auto& x : records) {
        const auto at = std::lower_bound(lowest.begin(), lowest.end(), x.sm);
        if (at != lowest.end() && *at == x.sm) by_sm[static_cast<std::size_t>(at - lowest.begin())].push_back(x);
    }
    std::vector<WarpRecord> kept;
    for (auto& warps : by_sm) {
        std::sort(warps.begin(), warps.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
        if (warps.size() > per_sm) warps.resize(per_sm);
        kept.insert(kept.end(), warps.begin(), warps.end());
    }
    std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    return kept;
}

}  // namespace hwcomm::gpumem
