#pragma once
// The one-lane measurement every one-way CUDA method shares (memcpy-*,
// sm-copy-*): a derived session owns its buffers and peer-access guards, says
// how to queue one copy (event mode) and how to do one synchronous copy (wall
// mode), and hands its two ends to set_endpoints().
#include <cstddef>
#include <string>

#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

class OneWaySession : public CudaLaneGroup {
public:
    // One lane, the record's own pair: the engine names it. Under load the
    // load lanes follow it, so the record keeps what loaded the link (U).
    std::vector<LaneSpec> lanes() const override {
        return has_background() ? CudaLaneGroup::lanes() : std::vector<LaneSpec>{};
    }

protected:
    // `stream_device`: the GPU whose stream queues the copies and whose clock times them.
    OneWaySession(int stream_device, TimingMode mode, std::size_t max_bytes)
        : CudaLaneGroup(mode, max_bytes), stream_device_(stream_device) {}

    // Called by the derived constructor once its buffers exist. `gate_note`
    // explains a gate_ok == false (pageable copies are synchronous for the host).
    void set_endpoints(const BufferRef& src, const BufferRef& dst, bool gate_ok, const std::string& gate_note);

    virtual void enqueue_copy(std::size_t bytes, cudaStream_t stream) = 0;
    virtual void copy_blocking(std::size_t bytes) = 0;

    const Stream& stream() const { return lane_stream(0); }

private:
    int stream_device_;
};

}  // namespace hwcomm::cuda
