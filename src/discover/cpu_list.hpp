#pragma once
// CPU / NUMA sets in the list syntax hwloc and nvidia-smi print ("0-15,32-47").
#include <cstdint>
#include <string>
#include <vector>

namespace hwcomm {

// Bit b of word w is CPU 64*w + b (NVML's cpu and node affinity masks).
std::vector<unsigned> indexes_from_mask(const std::vector<std::uint64_t>& words);
// Sorted, de-duplicated indexes -> "0-3,8,10-11"; "" for none.
std::string format_index_list(std::vector<unsigned> indexes);
// "0-3,8" -> {0,1,2,3,8}; throws std::invalid_argument for malformed text.
std::vector<unsigned> parse_index_list(const std::string& text);

}  // namespace hwcomm
