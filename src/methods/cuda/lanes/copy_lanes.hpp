#pragma once
// Lanes between endpoints (the concurrency methods, under-load): several
// lanes, each a copy between its own buffers, started together by the lane
// group's gate. A lane is a copy-engine copy (cudaMemcpyAsync /
// cudaMemcpyPeerAsync: "ce"), a copy kernel (16-byte loads and stores through
// a peer or mapped host pointer: "sm") or bulk copies by the TMA unit ("tma",
// sm_90 and newer): executor.hpp. Host buffers are pinned (cudaHostAlloc
// Portable|Mapped by a thread bound to the NUMA node), one per lane.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/sizing.hpp"
#include "methods/cuda/lanes/executor.hpp"
#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

// Which GPU's stream queues a GPU-to-GPU lane (and, for "sm", runs the kernel):
// the source writes into the destination, or the destination reads the source.
enum class Initiator { Writer, Reader };

class ConcurrentCopySession final : public CudaLaneGroup {
public:
    ConcurrentCopySession(TimingMode mode, const SizeCap& cap, Executor executor, const std::string& method);

    void add_host_to_gpu(const Vertex& numa, const Vertex& gpu);
    void add_gpu_to_host(const Vertex& gpu, const Vertex& numa);
    void add_gpu_to_gpu(const Vertex& src, const Vertex& dst, Initiator initiator);

    nlohmann::json& context_ref() { return context_; }

private:
    LaneSpec spec(const Vertex& src, const Vertex& dst) const;
    DeviceBuffer& device_buffer(int ordinal);
    HostBuffer& host_buffer(int numa);
    void enable_peer(int device, int peer);

    SizeCap cap_;
    Executor executor_;
    std::string method_;
    HwlocTopology topo_;  // names the host buffers' nodes (they live on the pool's own topology)
    std::vector<std::unique_ptr<PeerSetup>> peers_;
    std::vector<std::unique_ptr<DeviceBuffer>> device_buffers_;
    std::vector<std::unique_ptr<HostBuffer>> host_buffers_;
};

}  // namespace hwcomm::cuda
