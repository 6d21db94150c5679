#pragma once
// Binds the calling thread to the PUs of one NUMA node and restores the
// previous binding when it goes out of scope. Inside an OpenMP parallel
// region, each worker creates its own (HWLOC_CPUBIND_THREAD).
#include <string>

#include "platform/hwloc_topology.hpp"

namespace hwcomm {

class ScopedThreadBinding {
public:
    ScopedThreadBinding(const HwlocTopology& topo, int numa_os_index);
    ~ScopedThreadBinding();
    ScopedThreadBinding(const ScopedThreadBinding&) = delete;
    ScopedThreadBinding& operator=(const ScopedThreadBinding&) = delete;
    ScopedThreadBinding(ScopedThreadBinding&&) = delete;
    ScopedThreadBinding& operator=(ScopedThreadBinding&&) = delete;

    bool bound() const { return bound_; }
    // Why the thread could not be bound, or could not be restored.
    const std::string& note() const { return note_; }

private:
    hwloc_topology_t topology_ = nullptr;
    hwloc_cpuset_t previous_ = nullptr;  // owned; nullptr when nothing to restore
    bool bound_ = false;
    std::string note_;
};

}  // namespace hwcomm
