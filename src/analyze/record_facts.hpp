#pragma once
// Facts about a record that several analyses need: what its endpoints are,
// its peer-access state and host allocation, the theoretical limit of its
// path and the cache that could hold its working set.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/method_row.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

inline constexpr std::uint64_t kMiB = 1024ull * 1024ull;
// The CPU cache size assumed when the topology does not state one.
inline constexpr std::uint64_t kDefaultLlcBytes = 64 * kMiB;

bool is_gpu_id(const std::string& id);   // "gpu3"
bool is_numa_id(const std::string& id);  // "numa8"
// `id`, an end of `record`, in its own node's graph: without the "<node>:" a
// file of several nodes (--mpi, merge) puts before it, the node being the
// record's context.node.
std::string local_endpoint_id(const Record& record, const std::string& id);
// An end on a NUMA node (host memory): its figures move with the host's memory rate.
bool has_numa_endpoint(const Record& record);
// The number in "gpu3" / "numa8"; -1 when there is none.
int id_index(const std::string& id);

// "on" / "off" from the record's params; "" when the record says nothing.
std::string peer_of(const Record& record);
// "pageable" / "pinned" / "wc" / "registered" from host_mem; "" when none.
std::string host_alloc_of(const Record& record);
// Whether the record counts both directions' bytes (its row's duplex rule; false without a row).
bool is_duplex(const Record& record, const MethodRow* row);
// The record reads a file on a disk ("disk:vda" source: disk-read).
bool reads_from_disk(const Record& record);

// The ladder points the run measured once more (context.remeasured: a wide
// point, or a dip, on a quiet curve): "measured again: 128 MiB (first 53.8
// GB/s +-43%, kept 54.7)"; a tight first measurement that the second repeats
// within 2% adds ", the same: the curve's own"; "" when none, or when the
// entries are not what hwcomm writes.
std::string remeasured_note(const Record& record);

// A record whose blocking kernel timed out and was dropped (context.gate
// "dropped: ..."): its samples hold the cost of queueing the copies, which
// shows at small sizes. "" when the gate held or the record has none.
// Default runs before 2026-11-27 dropped it in the first tma-copy-d2d and
// zero-copy-read record on each GPU (lazy module loading behind the gate).
std::string dropped_gate_note(const Record& record);

// Time at the smallest size means something only where a GPU is involved
// (launch overhead); a CPU loop over 1 B measures the loop, not a path.
bool small_transfer_meaningful(const Record& record);

// The theoretical bottleneck of the record's path, from the topology.
struct LinkLimit {
    double gbps = 0;                        // per direction (x2 for duplex records)
    std::string what;                       // "NVLink 4.0 x18", "PCIe 5.0 x16", "2x PCIe 3.0 x16 (staged)"
    std::vector<std::string> vertices;      // the route
};

// The theoretical limit of a record's path in `topology` (nullopt when the
// topology does not state one: memory-bound paths, unknown links).
std::optional<LinkLimit> path_limit(const Record& record, const MethodRow* row, const Graph& topology);

// The cache that could hold a record's working set and its size: CPU LLC for
// CPU methods and host buffers, GPU L2 for on-GPU copies. Sizes come from
// the topology's vertex attributes "llc_bytes"/"l2_bytes" when present, else
// from a small table of GPU models, else documented defaults.
struct CacheInfo {
    std::uint64_t bytes = 0;
    std::string name;
    int buffers = 1;  // buffers of the record's size that live in that cache
};
std::optional<CacheInfo> relevant_cache(const Record& record, const MethodRow* row, const Graph* topology);

}  // namespace hwcomm::analyze
