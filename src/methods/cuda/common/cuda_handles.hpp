#pragma once
// RAII for the CUDA objects a session owns: the current device, streams,
// events, device memory and the peer-access state of a GPU pair. Creation
// failures throw MeasurementError; destructors never throw.
#include <cstddef>

#include <cuda_runtime_api.h>

namespace hwcomm::cuda {

// Makes `device` current; restores the previous current device on exit.
class ScopedDevice {
public:
    explicit ScopedDevice(int device);
    ~ScopedDevice();
    ScopedDevice(const ScopedDevice&) = delete;
    ScopedDevice& operator=(const ScopedDevice&) = delete;

private:
    int previous_ = -1;
    bool changed_ = false;
};

// A non-blocking stream on one device (no implicit sync with the legacy stream).
class Stream {
public:
    explicit Stream(int device);
    // A stream of the given priority (cudaStreamCreateWithPriority: lower numbers are higher priority).
    Stream(int device, int priority);
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }
    int device() const { return device_; }
    void synchronize() const;
    void synchronize_noexcept() const noexcept;

private:
    int device_;
    cudaStream_t stream_ = nullptr;
};

// cudaDeviceGetStreamPriorityRange on `device`: greatest is the highest priority (numerically lowest).
struct StreamPriorityRange {
    int least = 0, greatest = 0;
};
StreamPriorityRange stream_priority_range(int device);

// A timing event on one device; record it only on streams of that device.
class Event {
public:
    explicit Event(int device);
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }
    void record(const Stream& stream) const;
    void synchronize() const;
    // Seconds from `earlier` to this event (both on the same device; may be negative).
    double seconds_since(const Event& earlier) const;

private:
    int device_;
    cudaEvent_t event_ = nullptr;
};

class DeviceBuffer {
public:
    DeviceBuffer(int device, std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    std::byte* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    int device() const { return device_; }

private:
    int device_;
    std::size_t bytes_;
    std::byte* data_ = nullptr;
};

// Sets "may `device` access `peer`'s memory" to exactly `enable` for the
// guard's life, then restores what was there before. Enabling requires
// cudaDeviceCanAccessPeer; otherwise MeasurementError "peer access not supported".
class PeerAccessGuard {
public:
    PeerAccessGuard(int device, int peer, bool enable);
    ~PeerAccessGuard();
    PeerAccessGuard(const PeerAccessGuard&) = delete;
    PeerAccessGuard& operator=(const PeerAccessGuard&) = delete;
    bool was_enabled_before() const { return prior_; }

private:
    int device_;
    int peer_;
    bool enable_;
    bool prior_ = false;
    bool changed_ = false;
};

// cudaDeviceCanAccessPeer, checked.
bool can_access_peer(int device, int peer);

}  // namespace hwcomm::cuda
