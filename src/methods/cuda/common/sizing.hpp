#pragma once
// How large a session's buffers are and how many copies one timed sample
// holds. Pure arithmetic, no CUDA: tested on any machine.
#include <cstddef>
#include <string>
#include <vector>

namespace hwcomm::cuda {

struct DeviceMemory {
    int ordinal = -1;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    unsigned buffers = 0;  // buffers of the session's buffer size that live on this GPU
};

struct SizeCapInputs {
    std::size_t asked = 0;              // --max-size handed to prepare()
    bool pool_half_gpu_memory = false;  // allocate pools at half the (smallest) GPU's memory
    std::vector<DeviceMemory> devices;
    std::size_t host_available = 0;     // bytes the host can still give (MemAvailable)
    unsigned host_buffers = 0;          // host buffers of the buffer size
};

struct SizeCap {
    std::size_t buffer_bytes = 0;  // each device buffer (the pool when pool_half_gpu_memory)
    std::size_t host_bytes = 0;    // each host buffer: never more than the largest transfer
    std::size_t max_bytes = 0;     // largest transfer: min(asked, buffer_bytes, host cap)
    std::string limited_by;        // "asked", "pool: half of gpuN memory", "gpuN free memory", "host memory"
};

// Shares we leave to others: the driver needs device memory for its own
// staging and contexts; the OS and the rest of the run need host memory.
inline constexpr double kDeviceFreeShare = 0.90;
inline constexpr double kHostAvailableShare = 0.50;

// Device buffers are sized at `asked` (or half the smallest GPU's memory when
// pool_half_gpu_memory), capped so every device's buffers fit in
// kDeviceFreeShare of its free memory. Host buffers are sized at the largest
// transfer, capped so they fit in kHostAvailableShare of the available host
// memory. max_bytes is 0 when nothing fits.
SizeCap cap_buffer_bytes(const SizeCapInputs& in);

// Back-to-back copies per timed sample so one sample spans at least
// `target_interval_s` (event timer resolution is ~0.5 us): 1 for large
// copies, up to `cap` for small ones. The cap keeps the queue of copies
// behind the blocking kernel short enough never to stall the host.
// Long enough that the first copy's start-up is amortised over many (p2pBandwidthLatencyTest
// times 100 back-to-back copies); short enough that the queue never fills behind the gate.
inline constexpr double kTargetIntervalS = 200e-6;
inline constexpr std::size_t kMaxRepetitions = 100;
std::size_t plan_repetitions(double seconds_per_rep_estimate, double target_interval_s = kTargetIntervalS,
                             std::size_t cap = kMaxRepetitions);

}  // namespace hwcomm::cuda
