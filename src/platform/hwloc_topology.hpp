#pragma once
// RAII owner of an hwloc topology: this machine's (methods that allocate
// NUMA-bound memory or bind threads hold one for the life of a session), or
// one that discovery loaded from an XML export or a sysfs tree. The one
// topology type of the project.
#include <vector>

#include <hwloc.h>

namespace hwcomm {

class HwlocTopology {
public:
    // Loads this machine (no I/O objects); throws std::runtime_error when hwloc fails.
    HwlocTopology();
    // Takes ownership of an initialised topology (loaded or not): discovery
    // sets filters and sources before it loads.
    explicit HwlocTopology(hwloc_topology_t adopted) noexcept : topology_(adopted) {}
    ~HwlocTopology();
    HwlocTopology(HwlocTopology&& other) noexcept;
    HwlocTopology& operator=(HwlocTopology&& other) noexcept;
    HwlocTopology(const HwlocTopology&) = delete;
    HwlocTopology& operator=(const HwlocTopology&) = delete;

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
