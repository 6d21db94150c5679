#pragma once
// A transfer set with GPU lanes (hwcomm run --transfers): every transfer of
// the set a lane of one lane group, each with its own buffers, executor and
// host memory kind, all behind the group's start gate:
//   ce   cudaMemcpyAsync / cudaMemcpyPeerAsync on a stream of its issuing GPU
//   sm   the copy kernel (16-byte loads and stores through peer or mapped
//        host pointers), sized for the lane's SMs
//   cpu  a team of bound CPU threads between two pinned host buffers, stood
//        for by a stream of the reference GPU (lanes/host_lane.hpp)
// GPU lanes come first (the first is the reference whose clock times the
// window), CPU lanes after them. Per-lane and aggregate bandwidth as every
// lane group: bytes of every lane over the common window.
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/sizing.hpp"
#include "methods/cuda/lanes/host_lane.hpp"
#include "methods/cuda/lanes/lane_group.hpp"
#include "methods/transfers/transfer_set_check.hpp"
#include "platform/hwloc_topology.hpp"

namespace hwcomm::cuda {

class TransferSetSession final : public CudaLaneGroup {
public:
    TransferSetSession(TimingMode mode, const SizeCap& cap, const ResolvedSet& set, bool smt);
    ~TransferSetSession() override;
    // As the lane group, plus each CPU lane's own span on the host clock
    // (extras "<label>_host_s" per copy) and a failure when one never finished.
    Sample measure(std::size_t bytes, const std::string& variant) override;
    nlohmann::json& context_ref() { return context_; }

    // Buffers of the set's size it allocates: (CUDA ordinal, count) and host buffers.
    static void count_buffers(const ResolvedSet& set, std::vector<std::pair<int, unsigned>>& device, unsigned& host);

private:
    void add_gpu_lane(const ResolvedTransfer& t);
    void add_cpu_lanes(const std::vector<const ResolvedTransfer*>& lanes, bool smt);
    std::byte* device_buffer(int ordinal);
    HostBuffer& host_buffer(const std::string& kind, int numa);
    void enable_peer(int a, int b);

    SizeCap cap_;
    int reference_device_ = -1;
    HwlocTopology topo_;  // before the CPU teams, which borrow it (host buffers live on the pool's own topology)
    std::set<std::pair<int, int>> peer_pairs_;
    std::vector<std::unique_ptr<PeerSetup>> peers_;
    std::vector<std::unique_ptr<DeviceBuffer>> device_buffers_;
    std::vector<std::unique_ptr<HostBuffer>> host_buffers_;
    std::vector<std::pair<std::string, std::unique_ptr<HostLane>>> host_lanes_;  // after the buffers they copy
};

}  // namespace hwcomm::cuda
