#pragma once
// Builds the machine graph from every source that is available: hwloc (live,
// from an XML export or from a saved sysfs tree), sysfs PCIe link state, NVML
// (live through dlopen, or replayed from a recording) and the CUDA runtime
// when hwcomm was built with CUDA.
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

struct DiscoverOptions {
    std::string input_xml;     // --input: hwloc XML export instead of this machine
    std::string fsroot;        // --fsroot: saved Linux sysfs/procfs tree (directory)
    std::string nvml_replay;   // replay NVML answers from a recording instead of the driver
    bool use_nvml = true;      // live NVML (ignored with input_xml/fsroot: another machine)
    bool use_cuda = true;      // CUDA runtime facts (live machine only, CUDA builds only)
};

// Throws UsageError (one line naming the problem) for a missing, unreadable or
// malformed input. A machine without GPU, driver or NVML gives a CPU-only graph
// with a note saying so.
Graph discover_machine(const DiscoverOptions& options);

}  // namespace hwcomm
