#include "methods/transfers/transfer_set_method.hpp"

#include <algorithm>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "methods/cpu/cpu_lane_group.hpp"
#include "platform/host_info.hpp"

namespace hwcomm {

namespace {

const ResolvedSet& find_set(const std::vector<ResolvedSet>& sets, const ParamSet& params) {
    const auto it = params.find(TransferSetParam::key);
    if (it == params.end()) throw MeasurementError("transfer-set: the record names no set");
    for (const ResolvedSet& s : sets)
        if (s.name == it->second) return s;
    throw MeasurementError("transfer-set: no set '" + it->second + "' among the run's --transfers");
}

std::unique_ptr<TransferSession> cpu_session(const ResolvedSet& set, std::size_t max_bytes,
                                             const MethodOptions& options) {
    std::vector<CpuLaneDef> defs;
    for (const ResolvedTransfer& t : set.transfers)
        defs.push_back({t.lane(), t.src->os_index, t.dst->os_index, t.on->os_index, t.line.units});
    return std::make_unique<CpuLaneGroup>(defs, max_bytes, options.values.flag("smt"));
}

}  // namespace

std::string TransferSetMethod::name() const { return method_name::kTransferSet; }

std::string TransferSetMethod::description() const {
    return "the transfers of one set of a --transfers file started together (copy engines, copy kernels, TMA, CPU "
           "threads), with per-lane and aggregate bandwidth (docs/transfers.md)";
}

std::map<std::string, std::string> TransferSetMethod::parameter_docs() const {
    return {{TransferSetParam::key, "the set's name in the --transfers file; its lanes say executor, host_mem, peer, "
                                    "initiator, units and workers_numa"}};
}

std::vector<EndpointSet> TransferSetMethod::endpoint_sets(const Graph&) const {
    EndpointSet s;
    s.src_id = s.dst_id = "*";
    s.applicability = Applicability::no("measures the sets of a file only: hwcomm run --transfers FILE|preset:NAME "
                                        "(docs/transfers.md)");
    return {s};
}

std::unique_ptr<TransferSession> TransferSetMethod::prepare_set(const Graph& graph, const EndpointSet&,
                                                                const ParamSet& params, std::size_t max_bytes,
                                                                const MethodOptions& options) const {
    if (options.transfer_sets.empty()) throw MeasurementError("transfer-set: the run has no --transfers");
    TransferSetMachine machine = described_machine();
    machine.free_bytes = nullptr;  // checked before the run; the sessions size their buffers themselves
    const auto sets = resolve_transfer_sets(
        graph, parse_transfer_sets(options.transfer_sets, options.transfer_sets_source), machine);
    const ResolvedSet& set = find_set(sets, params);
    if (!set.needs_gpu()) return cpu_session(set, max_bytes, options);
    if (!gpu_.make_session) throw MeasurementError("transfer-set: this build has no CUDA methods for GPU lanes");
    return gpu_.make_session(graph, set, max_bytes, options);
}

TransferSetMachine TransferSetMethod::described_machine() const {
    TransferSetMachine m;
    m.cuda = static_cast<bool>(gpu_.make_session);
    m.tma = gpu_.tma;
    m.free_bytes = graph_memory_bytes;
    return m;
}

TransferSetMachine TransferSetMethod::live_machine() const {
    TransferSetMachine m = described_machine();
    const auto gpu_free = gpu_.free_bytes;
    m.free_bytes = [gpu_free](const Vertex& v) -> std::optional<std::uint64_t> {
        if (v.kind == VertexKind::Gpu) return gpu_free ? gpu_free(v) : graph_memory_bytes(v);
        // The node's own memory, or what the whole host has left when that is less.
        const std::uint64_t avail = available_memory_bytes();
        const auto node = graph_memory_bytes(v);
        if (!avail) return node;
        return node ? std::min(*node, avail) : avail;
    };
    return m;
}

const TransferSetMethod* find_transfer_set_method(const Registry& registry) {
    return dynamic_cast<const TransferSetMethod*>(registry.find(method_name::kTransferSet));
}

}  // namespace hwcomm
