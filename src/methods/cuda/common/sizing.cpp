#include "methods/cuda/common/sizing.hpp"

#include <algorithm>
#include <cmath>

namespace hwcomm::cuda {

SizeCap cap_buffer_bytes(const SizeCapInputs& in) {
    SizeCap cap;
    cap.buffer_bytes = in.asked;
    cap.limited_by = "asked";
    if (in.pool_half_gpu_memory) {
        bool first = true;
        for (const auto& d : in.devices) {
            if (d.total_bytes == 0) continue;
            const std::size_t half = d.total_bytes / 2;
            if (first || half < cap.buffer_bytes) {
                cap.buffer_bytes = half;
                cap.limited_by = "pool: half of gpu" + std::to_string(d.ordinal) + " memory";
                first = false;
            }
        }
    }
    for (const auto& d : in.devices) {
        if (d.buffers == 0) continue;
        const auto fit = static_cast<std::size_t>(static_cast<double>(d.free_bytes) * kDeviceFreeShare / d.buffers);
        if (fit < cap.buffer_bytes) {
            cap.buffer_bytes = fit;
            cap.limited_by = "gpu" + std::to_string(d.ordinal) + " free memory";
        }
    }
    cap.max_bytes = std::min(in.asked, cap.buffer_bytes);
    if (in.host_buffers > 0) {
        const auto fit =
            static_cast<std::size_t>(static_cast<double>(in.host_available) * kHostAvailableShare / in.host_buffers);
        if (fit < cap.max_bytes) {
            cap.max_bytes = fit;
            cap.limited_by = "host memory";
        }
    }
    // Capped sizes stay 4 KiB multiples (whole pages, whole 16-byte vectors).
    auto round = [](std::size_t v) { return v > 4096 ? v & ~std::size_t{4095} : v; };
    if (cap.max_bytes < in.asked) cap.max_bytes = round(cap.max_bytes);
    if (cap.buffer_bytes != in.asked) cap.buffer_bytes = round(cap.buffer_bytes);
    // Without a pool, device buffers need be no larger than the largest transfer.
    if (!in.pool_half_gpu_memory) cap.buffer_bytes = std::min(cap.buffer_bytes, cap.max_bytes);
    cap.host_bytes = cap.max_bytes;
    return cap;
}

std::size_t plan_repetitions(double seconds_per_rep_estimate, double target_interval_s, std::size_t cap) {
    if (cap == 0) cap = 1;
    if (!(seconds_per_rep_estimate > 0) || !std::isfinite(seconds_per_rep_estimate)) return cap;
    if (seconds_per_rep_estimate >= target_interval_s) return 1;
    // The epsilon keeps exact ratios (50 us / 2 us) from rounding up a whole copy.
    const double n = std::ceil(target_interval_s / seconds_per_rep_estimate - 1e-9);
    return n >= static_cast<double>(cap) ? cap : std::max<std::size_t>(1, static_cast<std::size_t>(n));
}

}  // namespace hwcomm::cuda
