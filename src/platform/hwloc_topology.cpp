#include "platform/hwloc_topology.hpp"

#include <stdexcept>
#include <utility>

namespace hwcomm {

HwlocTopology::HwlocTopology() {
    if (hwloc_topology_init(&topology_) != 0) throw std::runtime_error("hwloc_topology_init failed");
    if (hwloc_topology_load(topology_) != 0) {
        hwloc_topology_destroy(topology_);
        throw std::runtime_error("hwloc_topology_load failed");
    }
}

HwlocTopology::~HwlocTopology() {
    if (topology_) hwloc_topology_destroy(topology_);
}

HwlocTopology::HwlocTopology(HwlocTopology&& other) noexcept : topology_(std::exchange(other.topology_, nullptr)) {}

HwlocTopology& HwlocTopology::operator=(HwlocTopology&& other) noexcept {
    if (this != &other) {
        if (topology_) hwloc_topology_destroy(topology_);
        topology_ = std::exchange(other.topology_, nullptr);
    }
    return *this;
}

hwloc_obj_t HwlocTopology::numa_node(int os_index) const {
    if (os_index < 0) return nullptr;
    return hwloc_get_numanode_obj_by_os_index(topology_, static_cast<unsigned>(os_index));
}

std::vector<int> HwlocTopology::numa_os_indexes() const {
    std::vector<int> out;
    hwloc_obj_t node = nullptr;
    while ((node = hwloc_get_next_obj_by_type(topology_, HWLOC_OBJ_NUMANODE, node)) != nullptr)
        out.push_back(static_cast<int>(node->os_index));
    return out;
}

unsigned HwlocTopology::cores_of_numa(int os_index) const {
    hwloc_obj_t node = numa_node(os_index);
    if (!node || !node->cpuset) return 0;
    int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topology_, node->cpuset, HWLOC_OBJ_CORE);
    if (cores > 0) return static_cast<unsigned>(cores);
    int pus = hwloc_get_nbobjs_inside_cpuset_by_type(topology_, node->cpuset, HWLOC_OBJ_PU);
    return pus > 0 ? 1u : 0u;
}

}  // namespace hwcomm
