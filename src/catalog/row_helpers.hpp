#pragma once
// Pieces several rows share (rows_*.cpp only).
#include <vector>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "catalog/method_row.hpp"

namespace hwcomm::rows {

inline const std::vector<VertexKind> kNuma{VertexKind::NumaNode};
inline const std::vector<VertexKind> kGpu{VertexKind::Gpu};
inline const std::vector<VertexKind> kNumaOrGpu{VertexKind::NumaNode, VertexKind::Gpu};
inline const std::vector<VertexKind> kGpuOrNuma{VertexKind::Gpu, VertexKind::NumaNode};

inline ParamDecl numa_param() { return {NumaParam::key, {}}; }
inline ParamDecl stores_param() { return {StoresParam::key, {StoresParam::Plain, StoresParam::Nt}}; }
inline ParamDecl peer_param() { return {Peer::key, {Peer::On, Peer::Off}}; }
inline ParamDecl peer_on_param() { return {Peer::key, {Peer::On}}; }

// A lane of a single-transfer method is its own solo curve, picked by host
// allocation and peer state (background loads use pinned memory: default_host).
inline std::vector<SoloRule> solo_itself(bool default_pinned = false) {
    SoloRule r;
    r.keep = {HostMem::key, Peer::key};
    if (default_pinned) r.defaults = {{HostMem::key, HostMem::Pinned}};
    return {r};
}

// A lane of a method that runs copies (concurrency, load, kernels on mapped
// memory): the single copy of the lane's direction and engine.
inline std::vector<SoloRule> solo_by_lane_direction() {
    using D = LaneDirection;
    const RowParams sm{{CopyMode::key, CopyMode::Sm}};
    const RowParams tma{{CopyMode::key, CopyMode::Tma}};
    const RowParams sm_push{{CopyMode::key, CopyMode::Sm}, {Initiator::key, Initiator::Src}};
    const RowParams peer_on{{Peer::key, Peer::On}};
    const RowParams registered{{HostMem::key, HostMem::Registered}};
    const RowParams pinned{{HostMem::key, HostMem::Pinned}};
    return {
        {D::DeviceToDevice, tma, method_name::kTmaCopyD2D, peer_on, {}, {}},
        {D::DeviceToHost, tma, method_name::kTmaCopyD2H, registered, {}, {}},
        {D::HostToDevice, tma, method_name::kTmaCopyH2D, registered, {}, {}},
        {D::DeviceToDevice, sm_push, method_name::kSmCopyD2DPush, peer_on, {}, {}},
        {D::DeviceToDevice, sm, method_name::kSmCopyD2D, peer_on, {}, {}},
        {D::DeviceToDevice, {}, method_name::kMemcpyPeer, peer_on, {}, {}},
        {D::DeviceToHost, sm, method_name::kSmCopyD2H, registered, {}, {}},
        {D::DeviceToHost, {}, method_name::kMemcpyD2H, pinned, {}, {}},
        {D::HostToDevice, sm, method_name::kSmCopyH2D, registered, {}, {}},
        {D::HostToDevice, {}, method_name::kMemcpyH2D, pinned, {}, {}},
    };
}

}  // namespace hwcomm::rows
