#pragma once
// PCIe link state from Linux sysfs (/sys/bus/pci/devices/<addr>/current_link_*
// and max_link_*), under a saved tree's root when one is given.
#include <optional>
#include <string>

#include "core/graph.hpp"

namespace hwcomm {

// nullopt when the device or its link files are absent.
std::optional<PcieLink> read_sysfs_pcie_link(const std::string& fsroot, const PciAddress& address);

// Fills generation, width and theoretical GB/s (current and max) on the PCIe
// edge above every PCI vertex whose link sysfs describes. Internal edges (host
// bridge -> root port, switch upstream -> downstream port) stay untouched.
// Returns how many edges got link facts.
int apply_sysfs_pcie(Graph& graph, const std::string& fsroot);

}  // namespace hwcomm
