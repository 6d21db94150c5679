#pragma once
// RAII owner of this machine's live hwloc topology. Methods that allocate
// NUMA-bound memory or bind threads hold one for the life of a session.
#include <vector>

#include <hwloc.h>

namespace hwcomm {

class HwlocTopology {
public:
    // Loads this machine; throws std::runtime_error when hwloc fails.
    HwlocTopology();
    ~HwlocTopology();
    HwlocTopology(const HwlocTopology&) = delete;
    HwlocTopology& operator=(const HwlocTopology&) = delete;
    HwlocTopology(HwlocTopology&&) = delete;
    HwlocTopology& operator=(HwlocTopology&&) = delete;

    hwloc_topology_t get() const { return topology_; }
    // The NUMA node with this OS index, nullptr when absent.
    hwloc_obj_t numa_node(int os_index) const;
    std::vector<int> numa_os_indexes() const;
    // Physical cores whose PUs are local to the node (at least 1 when the node
    // has PUs but hwloc reports no Core objects).
    unsigned cores_of_numa(int os_index) const;

private:
    hwloc_topology_t topology_ = nullptr;
};

}  // namespace hwcomm
