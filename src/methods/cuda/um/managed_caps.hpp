#pragma once
// How much managed memory a unified-memory session may ask for. Pure
// arithmetic, no CUDA: tested on any machine.
//
// Asking for more managed memory than a GPU has free can hang that GPU (the
// driver evicts and refaults without end), so a session never allocates more
// than half the free memory of any GPU its pages may visit, nor more than
// half of what the host can still give (the pages start or end there).
#include <cstddef>
#include <string>
#include <vector>

namespace hwcomm::cuda {

inline constexpr double kManagedGpuFreeShare = 0.50;
inline constexpr double kManagedHostShare = 0.50;

struct ManagedGpuFree {
    int ordinal = -1;
    std::size_t free_bytes = 0;
};

struct ManagedCap {
    std::size_t max_bytes = 0;  // 0: nothing fits
    std::string limited_by;     // "asked", "half of gpuN free memory", "half of the host's available memory"
};

ManagedCap cap_managed_bytes(std::size_t asked, const std::vector<ManagedGpuFree>& gpus, std::size_t host_available);

}  // namespace hwcomm::cuda
