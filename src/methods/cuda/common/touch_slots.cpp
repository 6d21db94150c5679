#include "methods/cuda/common/touch_slots.hpp"

#include <vector>

#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/touch_kernels.hpp"

namespace hwcomm::cuda {

TouchSlots::TouchSlots(int device, int sm_count)
    : device_(device),
      sm_count_(sm_count),
      count_(static_cast<std::size_t>(touch_grid(~std::size_t{0} / 2, sm_count))),
      slots_(device, count_ * sizeof(unsigned long long)) {}

void TouchSlots::poison() {
    ScopedDevice on(device_);
    HWCOMM_CUDA_CHECK(cudaMemset(slots_.data(), 0xff, count_ * sizeof(unsigned long long)));
    HWCOMM_CUDA_CHECK(cudaDeviceSynchronize());
}

std::string TouchSlots::check(std::size_t bytes) const {
    const auto used = static_cast<std::size_t>(touch_grid(bytes, sm_count_));
    std::vector<unsigned long long> host(used);
    ScopedDevice on(device_);
    HWCOMM_CUDA_CHECK(cudaMemcpy(host.data(), slots_.data(), used * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost));
    std::size_t untouched = 0;
    unsigned long long differ = 0;
    for (unsigned long long v : host) {
        if (v == kSlotUntouched) ++untouched;
        else differ += v;
    }
    if (untouched)
        return "the read kernel did not run: " + std::to_string(untouched) + " of " + std::to_string(used) +
               " blocks left no count";
    if (differ)
        return std::to_string(differ) + " words read differ from the pattern (" + std::to_string(bytes) + " bytes)";
    return {};
}

}  // namespace hwcomm::cuda
