#include "methods/cuda/lanes/one_way_session.hpp"

namespace hwcomm::cuda {

void OneWaySession::set_endpoints(const BufferRef& src, const BufferRef& dst, bool gate_ok,
                                  const std::string& gate_note) {
    CudaLaneDef lane;
    lane.spec.label = "copy";
    lane.device = stream_device_;
    lane.src = src;
    lane.dst = dst;
    lane.enqueue = [this](std::size_t bytes, cudaStream_t stream) { enqueue_copy(bytes, stream); };
    add_lane(std::move(lane));
    set_blocking_copy([this](std::size_t bytes) { copy_blocking(bytes); });
    if (!gate_ok) disable_gate(gate_note);
    const bool mapped = dst.device && dst.kernel_device >= 0;
    context_["verify"] = mapped ? "fresh pattern before and GPU kernel check of the destination after every sample"
                                : "fresh source pattern before and host check of the destination after every sample; "
                                  "the destination poisoned once per session (it then holds an earlier sample's "
                                  "pattern, which differs from this sample's in every word)";
}

}  // namespace hwcomm::cuda
