#pragma once
// The data caches a worker on a NUMA node's first core sees, from hwloc: what
// the CPU methods need to name a cache-resident working set and to place the
// steps of the latency ladder (L1, L2, last level, then DRAM).
#include <cstdint>

#include <nlohmann/json.hpp>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

struct CacheSizes {
    std::uint64_t l1d = 0, l2 = 0, l3 = 0;  // bytes; 0 when hwloc does not know the level
    std::uint64_t llc = 0;                  // the last level present
    unsigned llc_shared_by_cores = 0;       // cores under that cache
};

// The caches above the first PU of the node; all zero for a node without PUs.
CacheSizes caches_of_numa(const HwlocTopology& topo, int numa_os_index);
nlohmann::json cache_sizes_to_json(const CacheSizes& c);

}  // namespace hwcomm
