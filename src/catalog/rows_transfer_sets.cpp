// The row of transfer sets read from a file (hwcomm run --transfers): any mix
// of copy-engine, copy-kernel and CPU lanes started together, in every build
// (a set of CPU lanes needs no GPU).
#include "catalog/method_catalog.hpp"
#include "catalog/row_helpers.hpp"

namespace hwcomm {

namespace {

// A lane stands for the single copy of its executor and direction: copy
// engines keep their host memory kind and peer state; copy kernels stand for
// the sm-copy curves (registered host memory: the only one they measure); CPU
// lanes for memcpy by one thread or a team.
std::vector<SoloRule> solo_by_executor() {
    using D = LaneDirection;
    namespace n = method_name;
    const RowParams ce{{ExecutorParam::key, ExecutorParam::Ce}};
    const RowParams ce_peer_on{{ExecutorParam::key, ExecutorParam::Ce}, {Peer::key, Peer::On}};
    const RowParams ce_peer_off{{ExecutorParam::key, ExecutorParam::Ce}, {Peer::key, Peer::Off}};
    const RowParams sm{{ExecutorParam::key, ExecutorParam::Sm}};
    const RowParams sm_push{{ExecutorParam::key, ExecutorParam::Sm}, {Initiator::key, Initiator::Src}};
    const RowParams sm_peer{{ExecutorParam::key, ExecutorParam::Sm}, {Peer::key, Peer::On}};
    const RowParams cpu{{ExecutorParam::key, ExecutorParam::Cpu}};
    const RowParams cpu_one{{ExecutorParam::key, ExecutorParam::Cpu}, {UnitsParam::key, "1"}};
    const RowParams peer_on{{Peer::key, Peer::On}};
    const RowParams peer_off{{Peer::key, Peer::Off}};
    const RowParams registered{{HostMem::key, HostMem::Registered}};
    const RowParams multi{{Threads::key, Threads::Multi}};
    const RowParams single{{Threads::key, Threads::Single}};
    return {
        {D::Any, cpu_one, n::kCpuMemcpy, single, {}, {}},
        {D::Any, cpu, n::kCpuMemcpy, multi, {}, {}},
        {D::DeviceToDevice, ce_peer_on, n::kMemcpyPeer, peer_on, {}, {}},
        {D::DeviceToDevice, ce_peer_off, n::kMemcpyPeer, peer_off, {}, {}},
        {D::DeviceToDevice, ce, n::kMemcpyD2D, {}, {}, {}},  // within one GPU
        {D::DeviceToDevice, sm_push, n::kSmCopyD2DPush, peer_on, {}, {}},
        {D::DeviceToDevice, sm_peer, n::kSmCopyD2D, peer_on, {}, {}},
        {D::DeviceToHost, ce, n::kMemcpyD2H, {}, {HostMem::key}, {{HostMem::key, HostMem::Pinned}}},
        {D::DeviceToHost, sm, n::kSmCopyD2H, registered, {}, {}},
        {D::HostToDevice, ce, n::kMemcpyH2D, {}, {HostMem::key}, {{HostMem::key, HostMem::Pinned}}},
        {D::HostToDevice, sm, n::kSmCopyH2D, registered, {}, {}},
    };
}

}  // namespace

std::vector<MethodRow> transfer_set_rows() {
    using namespace rows;
    return {
        {.name = method_name::kTransferSet,
         .family = MethodFamily::Concurrency,
         .build = MethodBuild::Always,
         .src_kinds = kNumaOrGpu,
         .dst_kinds = kNumaOrGpu,
         .params = {{TransferSetParam::key, {}}},
         .solo = solo_by_executor()},
    };
}

}  // namespace hwcomm
