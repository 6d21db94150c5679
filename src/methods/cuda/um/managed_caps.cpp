#include "methods/cuda/um/managed_caps.hpp"

namespace hwcomm::cuda {

ManagedCap cap_managed_bytes(std::size_t asked, const std::vector<ManagedGpuFree>& gpus, std::size_t host_available) {
    ManagedCap cap{asked, "asked"};
    for (const auto& g : gpus) {
        const auto half = static_cast<std::size_t>(static_cast<double>(g.free_bytes) * kManagedGpuFreeShare);
        if (half < cap.max_bytes) cap = {half, "half of gpu" + std::to_string(g.ordinal) + " free memory"};
    }
    const auto host = static_cast<std::size_t>(static_cast<double>(host_available) * kManagedHostShare);
    if (host < cap.max_bytes) cap = {host, "half of the host's available memory"};
    // A capped size stays whole pages.
    if (cap.max_bytes < asked) cap.max_bytes &= ~std::size_t{4095};
    return cap;
}

}  // namespace hwcomm::cuda
