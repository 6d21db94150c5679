#pragma once
// Theoretical link rates, GB/s (1e9 bytes/s) per direction.
#include <string>

namespace hwcomm {

// Usable PCIe bandwidth per lane and direction after line coding
// (8b/10b for Gen1-2, 128b/130b for Gen3-5, FLIT for Gen6). 0 when unknown.
double pcie_lane_gbps(int generation);
inline double pcie_link_gbps(int generation, int width) { return pcie_lane_gbps(generation) * width; }
// Generation from a sysfs link-speed string ("32.0 GT/s PCIe", "8 GT/s") or GT/s value.
int pcie_generation_from_gts(double gigatransfers);

// NVML's nvmlNvLinkVersion enum is not the marketing version: 1 -> 1.0,
// 2 -> 2.0, 3 -> 2.2, 4 -> 3.0, 5 -> 3.1, 6 -> 4.0, 7 -> 5.0.
std::string nvlink_version_from_nvml(int nvml_version);
// Per-link GB/s per direction for a marketing version ("4.0" -> 26.5625, as
// nvidia-smi nvlink -s reports for NVLink 4). 0 when unknown.
double nvlink_link_gbps(const std::string& version);

}  // namespace hwcomm
