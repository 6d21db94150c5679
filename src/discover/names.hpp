#pragma once
// Short human names from what hwloc found: vendor names without their legal
// suffixes, CPU models without trademark marks.
#include <string>

namespace hwcomm {

// "NVIDIA Corporation" -> "NVIDIA", "Advanced Micro Devices, Inc. [AMD/ATI]" -> "AMD/ATI".
std::string short_vendor(const std::string& vendor);
// "Intel(R) Xeon(R) Platinum 8168 CPU @ 2.70GHz" -> "Intel Xeon Platinum 8168 @ 2.70GHz".
std::string trim_cpu_model(const std::string& model);

}  // namespace hwcomm
