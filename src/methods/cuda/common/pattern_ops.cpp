#include "methods/cuda/common/pattern_ops.hpp"

#include <array>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/kernels.hpp"
#include "methods/cuda/common/pattern.hpp"

namespace hwcomm::cuda {

std::string mismatch_message(std::uint64_t mismatches, std::uint64_t first, std::size_t bytes) {
    return std::to_string(mismatches) + " of " + std::to_string(bytes) +
           " bytes differ from the pattern; first at byte " + std::to_string(first);
}

PatternOps::PerDevice& PatternOps::on(int device) {
    auto& d = devices_[device];
    if (!d.stream) {
        d.sm_count = sm_count_of(device);
        d.result = std::make_unique<DeviceBuffer>(device, 2 * sizeof(unsigned long long));
        d.stream = std::make_unique<Stream>(device);
    }
    return d;
}

void PatternOps::fill(const BufferRef& ref, std::size_t bytes, std::uint64_t seed, bool invert) {
    if (bytes == 0) return;
    // Host memory a GPU can map is filled by that GPU: the pages then hold no
    // dirty lines in the CPU's caches that the next timed DMA would have to
    // snoop, as between the samples of a plain repeated copy.
    if (filled_by_cpu(ref)) {
        fill_pattern_host(ref.host, bytes, seed, invert);
        return;
    }
    if (!ref.device || ref.kernel_device < 0) throw MeasurementError("internal: buffer without a fillable pointer");
    PerDevice& d = on(ref.kernel_device);
    ScopedDevice current(ref.kernel_device);
    launch_fill_pattern(d.stream->get(), ref.device, bytes, seed, invert, d.sm_count);
    d.stream->synchronize();
}

std::string PatternOps::check(const BufferRef& ref, std::size_t bytes, std::uint64_t seed) {
    if (bytes == 0) return {};
    // Mapped host memory is checked by its GPU too (it reads over the link
    // faster than one CPU thread, and leaves the CPU caches alone).
    const bool gpu = ref.device && ref.kernel_device >= 0;
    if (!gpu) {
        if (!ref.host) throw MeasurementError("internal: buffer without a checkable pointer");
        const PatternCheck c = check_pattern_host(ref.host, bytes, seed);
        return c.mismatches ? mismatch_message(c.mismatches, c.first_mismatch, bytes) : std::string{};
    }
    PerDevice& d = on(ref.kernel_device);
    ScopedDevice current(ref.kernel_device);
    auto* result = reinterpret_cast<unsigned long long*>(d.result->data());
    HWCOMM_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(unsigned long long), d.stream->get()));
    HWCOMM_CUDA_CHECK(cudaMemsetAsync(result + 1, 0xff, sizeof(unsigned long long), d.stream->get()));
    launch_count_mismatches(d.stream->get(), ref.device, bytes, seed, result, d.sm_count);
    std::array<unsigned long long, 2> host{};
    HWCOMM_CUDA_CHECK(cudaMemcpyAsync(host.data(), result, sizeof(host), cudaMemcpyDeviceToHost, d.stream->get()));
    d.stream->synchronize();
    return host[0] ? mismatch_message(host[0], host[1], bytes) : std::string{};
}

}  // namespace hwcomm::cuda
