#include "methods/cuda/common/cuda_handles.hpp"

#include <string>

#include "methods/cuda/common/cuda_check.hpp"

namespace hwcomm::cuda {

ScopedDevice::ScopedDevice(int device) {
    HWCOMM_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) {
        HWCOMM_CUDA_CHECK(cudaSetDevice(device));
        changed_ = true;
    }
}

ScopedDevice::~ScopedDevice() {
    if (changed_) HWCOMM_CUDA_WARN(cudaSetDevice(previous_));
}

Stream::Stream(int device) : device_(device) {
    ScopedDevice on(device);
    HWCOMM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Stream::Stream(int device, int priority) : device_(device) {
    ScopedDevice on(device);
    HWCOMM_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
}

StreamPriorityRange stream_priority_range(int device) {
    ScopedDevice on(device);
    StreamPriorityRange r;
    HWCOMM_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&r.least, &r.greatest));
    return r;
}

Stream::~Stream() {
    if (!stream_) return;
    synchronize_noexcept();
    HWCOMM_CUDA_WARN(cudaStreamDestroy(stream_));
}

void Stream::synchronize() const { HWCOMM_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

void Stream::synchronize_noexcept() const noexcept { HWCOMM_CUDA_WARN(cudaStreamSynchronize(stream_)); }

Event::Event(int device) : device_(device) {
    ScopedDevice on(device);
    HWCOMM_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDefault));
}

Event::~Event() {
    if (event_) HWCOMM_CUDA_WARN(cudaEventDestroy(event_));
}

void Event::record(const Stream& stream) const {
    if (stream.device() != device_)
        throw MeasurementError("internal: event of gpu" + std::to_string(device_) + " recorded on a stream of gpu" +
                               std::to_string(stream.device()));
    HWCOMM_CUDA_CHECK(cudaEventRecord(event_, stream.get()));
}

void Event::synchronize() const { HWCOMM_CUDA_CHECK(cudaEventSynchronize(event_)); }

double Event::seconds_since(const Event& earlier) const {
    float ms = 0;
    HWCOMM_CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
    return static_cast<double>(ms) * 1e-3;
}

DeviceBuffer::DeviceBuffer(int device, std::size_t bytes) : device_(device), bytes_(bytes) {
    ScopedDevice on(device);
    void* p = nullptr;
    HWCOMM_CUDA_CHECK(cudaMalloc(&p, bytes == 0 ? 1 : bytes));
    data_ = static_cast<std::byte*>(p);
}

DeviceBuffer::~DeviceBuffer() {
    if (!data_) return;
    try {
        ScopedDevice on(device_);
        HWCOMM_CUDA_WARN(cudaFree(data_));
    } catch (...) {
        HWCOMM_CUDA_WARN(cudaFree(data_));
    }
}

bool can_access_peer(int device, int peer) {
    int ok = 0;
    HWCOMM_CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, device, peer));
    return ok != 0;
}

PeerAccessGuard::PeerAccessGuard(int device, int peer, bool enable) : device_(device), peer_(peer), enable_(enable) {
    if (enable && !can_access_peer(device, peer))
        throw MeasurementError("peer access not supported: cudaDeviceCanAccessPeer(gpu" + std::to_string(device) +
                               " -> gpu" + std::to_string(peer) + ") is 0");
    ScopedDevice on(device);
    if (enable) {
        const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();  // not an error for us: clear it
            prior_ = true;
        } else {
            HWCOMM_CUDA_CHECK(err);
            changed_ = true;
        }
    } else {
        // Without cudaDeviceCanAccessPeer, access cannot have been enabled:
        // cudaDeviceDisablePeerAccess would only report NotEnabled.
        const cudaError_t err = cudaDeviceDisablePeerAccess(peer);
        if (err == cudaErrorPeerAccessNotEnabled || err == cudaErrorInvalidDevice) {
            (void)cudaGetLastError();
            prior_ = false;
        } else {
            HWCOMM_CUDA_CHECK(err);
            prior_ = true;
            changed_ = true;
        }
    }
}

PeerAccessGuard::~PeerAccessGuard() {
    if (!changed_) return;
    int previous = -1;
    if (!HWCOMM_CUDA_WARN(cudaGetDevice(&previous))) return;
    if (HWCOMM_CUDA_WARN(cudaSetDevice(device_))) {
        if (enable_)
            HWCOMM_CUDA_WARN(cudaDeviceDisablePeerAccess(peer_));
        else
            HWCOMM_CUDA_WARN(cudaDeviceEnablePeerAccess(peer_, 0));
    }
    HWCOMM_CUDA_WARN(cudaSetDevice(previous));
}

}  // namespace hwcomm::cuda
