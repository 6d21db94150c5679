#pragma once
// Fills and checks transfer buffers with the verification pattern, on the CPU
// for host memory and with kernels for device memory (and for write-combined
// host memory, which the CPU reads uncached and slowly: a GPU reads it through
// its mapped pointer instead). Owns one stream and one result slot per GPU.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "methods/cuda/common/cuda_handles.hpp"

namespace hwcomm::cuda {

// One end of a transfer, as the pattern code needs to see it.
struct BufferRef {
    std::byte* host = nullptr;     // CPU pointer (host memory), nullptr for device memory
    std::byte* device = nullptr;   // kernel-usable pointer (device memory or mapped host), may be null
    int kernel_device = -1;        // GPU whose kernels use `device`
    bool check_on_gpu = false;     // host memory the CPU should not read back (write-combined)
};

class PatternOps {
public:
    PatternOps() = default;
    PatternOps(const PatternOps&) = delete;
    PatternOps& operator=(const PatternOps&) = delete;

    // Host memory no GPU maps: the calling thread fills it, one CPU core's pace.
    static bool filled_by_cpu(const BufferRef& ref) { return ref.host && !(ref.device && ref.kernel_device >= 0); }
    // Returns when the fill is complete (device fills are synchronized).
    void fill(const BufferRef& ref, std::size_t bytes, std::uint64_t seed, bool invert);
    // "" when the first `bytes` bytes hold the pattern, else what is wrong.
    std::string check(const BufferRef& ref, std::size_t bytes, std::uint64_t seed);

private:
    struct PerDevice {
        std::unique_ptr<Stream> stream;
        std::unique_ptr<DeviceBuffer> result;  // 2 x unsigned long long
        int sm_count = 0;
    };
    PerDevice& on(int device);

    std::map<int, PerDevice> devices_;
};

// Message for a failed check: "123 of 4096 bytes differ from the pattern; first at byte 17".
std::string mismatch_message(std::uint64_t mismatches, std::uint64_t first, std::size_t bytes);

}  // namespace hwcomm::cuda
