#pragma once
// hwcomm gpumem --ncu (CUDA builds only): Nsight Compute counts the sectors of
// gpumem-stride's kernels and the counts join the results file's points.
#include <string>

#include "cli/commands.hpp"

namespace hwcomm::cli {

// The hidden `__gpumem-stride-kernels` command that ncu profiles.
void add_stride_kernels_command(CLI::App& app, Action& action);

// Runs the stride kernels of every gpumem-stride record of `results_path`
// under ncu and adds metrics sectors_ncu and dram_sectors_ncu to its points;
// without ncu, or when it fails, records why in the record's context instead.
// Rewrites the file atomically; prints one line per record.
void add_ncu_sectors(const std::string& results_path);

}  // namespace hwcomm::cli
