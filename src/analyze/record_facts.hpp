#pragma once
// Facts about a record that several analyses need: what its endpoints are,
// its peer-access state and host allocation, the theoretical limit of its
// path and the cache that could hold its working set.
#include <optional>
#include <string>

#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::analyze {

bool is_gpu_id(const std::string& id);   // "gpu3"
bool is_numa_id(const std::string& id);  // "numa8"
// The number in "gpu3" / "numa8"; -1 when there is none.
int id_index(const std::string& id);

// "on" / "off" from the record's params; "" when the record says nothing.
std::string peer_of(const Record& record);
// "pageable" / "pinned" / "wc" / "registered" from host_mem; "" when none.
std::string host_alloc_of(const Record& record);
bool is_duplex(const Record& record);
// The record reads a file on a disk ("disk:vda" source: disk-read).
bool reads_from_disk(const Record& record);

// Time at the smallest size means something only where a GPU is involved
// (launch overhead); a CPU loop over 1 B measures the loop, not a path.
bool small_transfer_meaningful(const Record& record);

// "PCIe 3.0 x16", "NVLink 1.0 x1", "SMP link".
std::string describe_edge(const Edge& edge);

}  // namespace hwcomm::analyze
