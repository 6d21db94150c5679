#include "platform/cache_sizes.hpp"

namespace hwcomm {

CacheSizes caches_of_numa(const HwlocTopology& topo, int numa_os_index) {
    CacheSizes c;
    hwloc_obj_t node = topo.numa_node(numa_os_index);
    if (!node || !node->cpuset || hwloc_bitmap_iszero(node->cpuset)) return c;
    hwloc_topology_t t = topo.get();
    hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(t, node->cpuset, HWLOC_OBJ_PU, 0);
    for (hwloc_obj_t o = pu ? pu->parent : nullptr; o; o = o->parent) {
        if (!hwloc_obj_type_is_dcache(o->type) || !o->attr) continue;
        const auto& cache = o->attr->cache;
        if (cache.type == HWLOC_OBJ_CACHE_INSTRUCTION) continue;
        const std::uint64_t bytes = cache.size;
        if (cache.depth == 1) c.l1d = bytes;
        else if (cache.depth == 2) c.l2 = bytes;
        else if (cache.depth == 3) c.l3 = bytes;
        if (cache.depth >= 1 && bytes > 0) {
            c.llc = bytes;  // walking up: the last one seen is the last level
            const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(t, o->cpuset, HWLOC_OBJ_CORE);
            c.llc_shared_by_cores = cores > 0 ? static_cast<unsigned>(cores) : 1;
        }
    }
    return c;
}

nlohmann::json cache_sizes_to_json(const CacheSizes& c) {
    return {{"l1d_bytes", c.l1d}, {"l2_bytes", c.l2}, {"l3_bytes", c.l3}, {"llc_bytes", c.llc},
            {"llc_shared_by_cores", c.llc_shared_by_cores}};
}

}  // namespace hwcomm
