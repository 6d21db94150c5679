#pragma once
// The result slots of the read-check kernel on one GPU: poisoned before a
// sample (untimed), read back after it, so a kernel that did not run, or read
// words that are not the pattern, fails the sample's verification.
#include <cstddef>
#include <string>

#include "methods/cuda/common/cuda_handles.hpp"

namespace hwcomm::cuda {

class TouchSlots {
public:
    TouchSlots(int device, int sm_count);
    unsigned long long* data() const { return reinterpret_cast<unsigned long long*>(slots_.data()); }
    int sm_count() const { return sm_count_; }
    // Every slot := kSlotUntouched; returns when done.
    void poison();
    // "" when every block of a read of `bytes` ran and found the pattern, else what was wrong.
    std::string check(std::size_t bytes) const;

private:
    int device_;
    int sm_count_;
    std::size_t count_;
    DeviceBuffer slots_;
};

}  // namespace hwcomm::cuda
