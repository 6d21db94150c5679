#pragma once
// Transfer sets this machine's graph implies, for `--transfers preset:NAME`:
//   all-to-all  every ordered pair of CUDA GPUs joined by NVLink (directly or
//               through NVSwitches), all at once: PCIe and SMP pairs left out
//   ring        GPU i to GPU i+1 (CUDA ordinal order, the last to the first)
//   bisection   the first half of the GPUs with the second, both ways: GPU i
//               and GPU i+n/2 (an odd last GPU left out)
// Options after the name, separated by ':': an executor (ce, the default,
// sm, tma) and a size (the run's sizes by default): preset:ring:sm:256M.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/transfers/transfer_set.hpp"

namespace hwcomm {

inline constexpr const char* kPresetPrefix = "preset:";

bool is_transfer_preset(const std::string& arg);
const std::vector<std::string>& transfer_preset_names();

// The preset as a file (source "preset:ring:sm", lines as format_transfer_sets
// writes them). Throws UsageError for an unknown name or option, or a machine
// without the GPUs the preset needs.
TransferSetFile preset_transfer_sets(const Graph& graph, const std::string& spec);

}  // namespace hwcomm
