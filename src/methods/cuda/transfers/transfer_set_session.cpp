#include "methods/cuda/transfers/transfer_set_session.hpp"

#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/kernels.hpp"

namespace hwcomm::cuda {

namespace {

bool on_host(const Vertex& v) { return v.kind == VertexKind::NumaNode; }

}  // namespace

void TransferSetSession::count_buffers(const ResolvedSet& set, std::vector<std::pair<int, unsigned>>& device,
                                       unsigned& host) {
    for (const ResolvedTransfer& t : set.transfers)
        for (const Vertex* v : {t.src, t.dst}) {
            if (on_host(*v)) ++host;
            else device.push_back({cuda_ordinal(*v), 1});
        }
}

TransferSetSession::TransferSetSession(TimingMode mode, const SizeCap& cap, const ResolvedSet& set, bool smt)
    : CudaLaneGroup(mode, cap.max_bytes), cap_(cap) {
    std::vector<const ResolvedTransfer*> cpu;
    for (const ResolvedTransfer& t : set.transfers) {
        if (t.gpu_executor()) add_gpu_lane(t);
        else cpu.push_back(&t);
    }
    if (reference_device_ < 0) throw MeasurementError("internal: a GPU transfer set without a GPU lane");
    if (!cpu.empty()) add_cpu_lanes(cpu, smt);
    context_["transfer_set"] = {{"name", set.name}, {"lanes", set.transfers.size()}, {"cpu_lanes", cpu.size()}};
    context_["lane_buffers"] = {{"device_buffer_bytes", cap.buffer_bytes}, {"host_buffer_bytes", cap.host_bytes}};
    context_["copy"] = {{"ce", "copy engines: cudaMemcpyAsync / cudaMemcpyPeerAsync on the issuing GPU's stream"},
                        {"sm", "copy kernels: 16-byte loads and stores through a peer or mapped host pointer"},
                        {"cpu", "CPU threads bound to one NUMA node, memcpy of 64-byte-aligned shares; the lane's "
                                "stream on the reference GPU starts them (host function) and waits for them (kernel "
                                "polling a host-mapped counter)"}};
}

TransferSetSession::~TransferSetSession() {
    host_lanes_.clear();  // their teams read the host buffers: gone first
}

std::byte* TransferSetSession::device_buffer(int ordinal) {
    device_buffers_.push_back(std::make_unique<DeviceBuffer>(ordinal, cap_.buffer_bytes));
    return device_buffers_.back()->data();
}

HostBuffer& TransferSetSession::host_buffer(const std::string& kind, int numa) {
    host_buffers_.push_back(make_host_buffer(host_mem_kind_from_string(kind), topo_, numa, cap_.host_bytes));
    context_["host_buffers"].push_back(host_buffers_.back()->describe());
    return *host_buffers_.back();
}

void TransferSetSession::enable_peer(int a, int b) {
    // Once per pair: a second guard would restore the first one's state in the wrong order.
    if (!peer_pairs_.insert({std::min(a, b), std::max(a, b)}).second) return;
    peers_.push_back(std::make_unique<PeerSetup>(a, b, true));
    context_["peer"].push_back(peers_.back()->describe());
}

void TransferSetSession::add_gpu_lane(const ResolvedTransfer& t) {
    const int exec = cuda_ordinal(*t.on);
    if (reference_device_ < 0) reference_device_ = exec;
    const TransferExecutor executor = t.line.executor;
    if (executor == TransferExecutor::Tma) throw MeasurementError("tma lanes: this build has no TMA copies");
    const bool kernel = executor == TransferExecutor::Sm;
    const int sms = kernel ? (t.line.units ? static_cast<int>(t.line.units) : sm_count_of(exec)) : 0;
    BufferRef src, dst;
    auto end_of = [&](const Vertex& v, BufferRef& ref) -> std::byte* {
        if (on_host(v)) {
            HostBuffer& h = host_buffer(t.host_mem, v.os_index);
            if (kernel && !h.device_view()) throw MeasurementError(t.label + ": host buffer without a device mapping");
            ref = {h.data(), h.device_view(), exec, h.kind() == HostMemKind::WriteCombined};
            return kernel ? h.device_view() : h.data();
        }
        std::byte* d = device_buffer(cuda_ordinal(v));
        ref = {nullptr, d, cuda_ordinal(v), false};
        return d;
    };
    std::byte* from = end_of(*t.src, src);
    std::byte* to = end_of(*t.dst, dst);
    const int a = on_host(*t.src) ? -1 : cuda_ordinal(*t.src);
    const int b = on_host(*t.dst) ? -1 : cuda_ordinal(*t.dst);
    if (t.peer == Peer::On) enable_peer(a, b);
    EnqueueCopy enqueue;
    if (kernel) {
        enqueue = [to, from, sms](std::size_t bytes, cudaStream_t s) { launch_copy_kernel(s, to, from, bytes, sms); };
    } else if (a >= 0 && b >= 0 && a != b) {
        enqueue = [to, from, a, b](std::size_t bytes, cudaStream_t s) {
            HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(to, b, from, a, bytes, s));
        };
    } else {
        // Unified addressing tells pinned host and device memory apart.
        enqueue = [to, from](std::size_t bytes, cudaStream_t s) {
            HWCOMM_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, s));
        };
    }
    add_lane({t.lane(), exec, src, dst, std::move(enqueue)});
}

void TransferSetSession::add_cpu_lanes(const std::vector<const ResolvedTransfer*>& lanes, bool smt) {
    std::vector<TeamRequest> requests;
    for (const ResolvedTransfer* t : lanes) requests.push_back({t->on->os_index, t->line.units});
    std::vector<std::string> notes;
    const auto slots = assign_team_slots(topo_, requests, smt, notes);
    if (!notes.empty()) context_["binding_notes"] = notes;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const ResolvedTransfer& t = *lanes[i];
        HostBuffer& from = host_buffer(HostMem::Pinned, t.src->os_index);
        HostBuffer& to = host_buffer(HostMem::Pinned, t.dst->os_index);
        auto lane = std::make_unique<HostLane>(topo_, slots[i], reference_device_, to.data(), from.data());
        nlohmann::json where = nlohmann::json::array();
        for (const CoreSlot& s : slots[i]) where.push_back({{"core", s.core}, {"pu", s.pu}});
        context_["cpu_lanes"].push_back({{"label", t.label}, {"workers_node", t.on->os_index},
                                         {"threads", slots[i].size()}, {"slots", where}});
        // Filled and checked through the reference GPU's view, as every mapped host buffer.
        add_lane({t.lane(), reference_device_, BufferRef{from.data(), from.device_view(), reference_device_, false},
                  BufferRef{to.data(), to.device_view(), reference_device_, false}, lane->enqueue()});
        host_lanes_.emplace_back(t.label, std::move(lane));
    }
}

Sample TransferSetSession::measure(std::size_t bytes, const std::string& variant) {
    Sample s = CudaLaneGroup::measure(bytes, variant);
    for (auto& [label, lane] : host_lanes_) {
        if (lane->take_timed_out())
            throw MeasurementError(label + ": the CPU lane did not report its copies within " +
                                   std::to_string(HostLane::kTimeoutNs / 1'000'000'000ull) + " s");
        const auto span = lane->last_span();
        const std::size_t reps = std::max<std::size_t>(1, lane->last_reps());
        s.extras[label + "_host_s"] = span.seconds() / static_cast<double>(reps);
    }
    return s;
}

}  // namespace hwcomm::cuda
