#pragma once
// One lane of a GPU kernel that reads or writes memory it reaches through a
// pointer (mapped pinned host memory, a peer GPU's memory): zero-copy access,
// one direction of the link at a time. The lane group gives the timing (the
// blocking kernel, events, batches); this session owns its own reset and
// verify, because the far buffer is read in place (the read kernel checks
// the pattern as it reads) or written in place (the write kernel generates it).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "methods/cuda/common/host_memory.hpp"
#include "methods/cuda/common/peer_setup.hpp"
#include "methods/cuda/common/sizing.hpp"
#include "methods/cuda/common/touch_slots.hpp"
#include "methods/cuda/lanes/lane_group.hpp"

namespace hwcomm::cuda {

enum class TouchDirection { Read, Write };

class ZeroCopySession final : public CudaLaneGroup {
public:
    // Host memory of `kind` on `numa`, reached by the kernel on `gpu`.
    ZeroCopySession(const Graph& graph, const Vertex& numa, const Vertex& gpu, TouchDirection dir, HostMemKind kind,
                    const SizeCap& cap, const MethodOptions& options);
    // `far_gpu`'s memory, reached by the kernel on `exec_gpu` through the peer pointer.
    ZeroCopySession(const Graph& graph, const Vertex& far_gpu, const Vertex& exec_gpu, TouchDirection dir,
                    const SizeCap& cap, const MethodOptions& options);

    std::vector<LaneSpec> lanes() const override { return {}; }  // one lane: the record's own pair
    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;

private:
    void add_touch_lane(const Graph& graph, const Vertex& gpu, const SizeCap& cap, const MethodOptions& options);

    TouchDirection dir_;
    int exec_;
    int sm_count_;
    std::unique_ptr<HwlocTopology> topo_;  // names the host buffer's node (the buffer lives on the pool's own topology)
    std::unique_ptr<HostBuffer> host_;
    std::optional<PeerSetup> peer_;
    std::unique_ptr<DeviceBuffer> far_device_;
    BufferRef far_;  // the memory the kernel reaches
    TouchSlots slots_;
    PatternOps patterns_;
    std::uint64_t seed_ = 0;
    std::uint64_t fills_ = 0;
    std::size_t reset_bytes_ = 0;
    bool fresh_ = false;  // reset since the last timed batch
};

}  // namespace hwcomm::cuda
