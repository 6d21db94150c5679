#include "methods/transfers/transfer_set_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/error.hpp"
#include "core/peer_path.hpp"
#include "measure/byte_size.hpp"
#include "methods/under_load.hpp"

namespace hwcomm {

namespace {

class Fail {
public:
    Fail(const std::string& source, std::size_t line) : where_(source + ":" + std::to_string(line) + ": ") {}
    [[noreturn]] void operator()(const std::string& why) const { throw UsageError(where_ + why); }

private:
    std::string where_;
};

bool is_gpu(const Vertex& v) { return v.kind == VertexKind::Gpu; }

std::string endpoint_list(const Graph& graph) {
    std::string out;
    for (const Vertex* v : transfer_endpoints(graph)) out += (out.empty() ? "" : ", ") + v->id;
    return out.empty() ? "none" : out;
}

// Why `v` cannot be a transfer's end, "" when it can.
std::string why_not_endpoint(const Graph& graph, const Vertex& v) {
    if (v.kind == VertexKind::NumaNode) {
        const auto hosts = load_host_nodes(graph);
        return std::find(hosts.begin(), hosts.end(), &v) != hosts.end() ? "" : v.id + " is a NUMA node without memory";
    }
    if (v.kind == VertexKind::Gpu) {
        const auto gpus = load_gpus(graph);
        if (std::find(gpus.begin(), gpus.end(), &v) != gpus.end()) return "";
        const auto vendor = v.attrs.find("gpu_vendor");
        if (vendor != v.attrs.end() && vendor->second != "NVIDIA") return v.id + " is an " + vendor->second + " GPU (no CUDA)";
        return v.id + " has no CUDA ordinal (CUDA did not report it)";
    }
    return v.id + " is a " + to_string(v.kind) + ", not a NUMA node or a GPU";
}

const Vertex& endpoint(const Graph& graph, const std::string& id, const char* what, const Fail& fail) {
    const Vertex* v = graph.find(id);
    if (!v) fail("unknown " + std::string(what) + " '" + id + "' (endpoints here: " + endpoint_list(graph) + ")");
    if (const std::string why = why_not_endpoint(graph, *v); !why.empty()) fail(why);
    return *v;
}

std::string pair_text(const TransferLine& t) { return t.executor_text() + " " + t.src + "->" + t.dst; }

// The GPU whose stream issues a GPU executor's copy.
const Vertex* gpu_executor_on(const Graph& graph, const TransferLine& t, const Vertex& src, const Vertex& dst,
                              const Fail& fail) {
    const Vertex* gpu_end = is_gpu(src) ? &src : &dst;
    if (t.at.empty()) return gpu_end;  // GPU to GPU: the source writes into the destination
    const Vertex* at = graph.find(t.at);
    if (!at || (at != &src && at != &dst) || !is_gpu(*at)) {
        if (is_gpu(src) && is_gpu(dst) && &src != &dst)
            fail(pair_text(t) + ": '@" + t.at + "' must name " + src.id + " (it writes) or " + dst.id + " (it reads)");
        fail(pair_text(t) + ": '@" + t.at + "': the copy is issued by " + gpu_end->id + ", its GPU end");
    }
    return at;
}

const Vertex* cpu_executor_on(const Graph& graph, const TransferLine& t, const Vertex& src, const Fail& fail) {
    const Vertex* on = t.at.empty() ? &src : graph.find(t.at);
    if (!on || on->kind != VertexKind::NumaNode)
        fail(pair_text(t) + ": '@" + t.at + "' must name the NUMA node whose cores copy (e.g. @" + src.id + ")");
    if (on->numa && on->numa->cores == 0 && on->numa->pus.empty())
        fail(pair_text(t) + ": " + on->id + " has no CPUs to run the copy");
    if (t.units && on->numa) {
        const unsigned cpus = std::max<unsigned>(on->numa->cores, static_cast<unsigned>(on->numa->pus.size()));
        if (cpus > 0 && t.units > cpus)
            fail(pair_text(t) + ": " + std::to_string(t.units) + " threads, but " + on->id + " has " +
                 std::to_string(cpus) + " CPUs");
    }
    return on;
}

std::string check_host_mem(const TransferLine& t, bool host_end, const Fail& fail) {
    if (!host_end || t.executor == TransferExecutor::Cpu) {
        if (!t.host_mem.empty())
            fail(pair_text(t) + ": host memory '" + t.host_mem + "' applies to a copy between host and GPU memory");
        return "";
    }
    if (t.host_mem.empty()) return HostMem::Pinned;
    if (t.host_mem == HostMem::Pageable)
        fail(pair_text(t) + ": pageable memory cannot start with the others (queueing a copy from it blocks the "
                            "host); measure it alone: hwcomm run --filter method=memcpy-h2d");
    if (t.host_mem != HostMem::Pinned && t.host_mem != HostMem::Registered && t.host_mem != HostMem::Wc)
        fail(pair_text(t) + ": unknown host memory '" + t.host_mem + "' (pinned, registered or wc)");
    return t.host_mem;
}

ResolvedTransfer resolve_line(const Graph& graph, const TransferLine& t, const TransferSetMachine& machine,
                              const Fail& fail) {
    ResolvedTransfer r;
    r.line = t;
    const Vertex& src = endpoint(graph, t.src, "source", fail);
    const Vertex& dst = endpoint(graph, t.dst, "destination", fail);
    r.src = &src, r.dst = &dst;
    const bool gpu_end = is_gpu(src) || is_gpu(dst);
    if (t.executor == TransferExecutor::Cpu) {
        if (gpu_end)
            fail(pair_text(t) + ": CPU threads do not address GPU memory; a copy to or from a GPU takes ce, sm or tma");
        r.on = cpu_executor_on(graph, t, src, fail);
    } else {
        if (!gpu_end) fail(pair_text(t) + ": copy engines and kernels need a GPU end; host to host takes cpu");
        if (!machine.cuda) fail(pair_text(t) + ": this build has no CUDA methods (configured without CUDA)");
        r.on = gpu_executor_on(graph, t, src, dst, fail);
        const bool two_gpus = is_gpu(src) && is_gpu(dst) && &src != &dst;
        if (two_gpus) {
            const PeerPath path = peer_path_in_graph(graph, src, dst);
            r.peer = path.possible ? Peer::On : Peer::Off;
            if (!path.possible && t.executor != TransferExecutor::Ce)
                fail(pair_text(t) + ": a kernel reaches another GPU only with peer access: " + path.via);
        }
        const GpuInfo* info = r.on->gpu ? &*r.on->gpu : nullptr;
        if (t.executor == TransferExecutor::Tma) {
            if (!machine.tma) fail(pair_text(t) + ": this build has no TMA copies");
            if (info && info->cc_major > 0 && info->cc_major < 9)
                fail(pair_text(t) + ": TMA copies need sm_90 or newer; " + r.on->id + " is sm_" +
                     std::to_string(info->cc_major) + std::to_string(info->cc_minor));
        }
        if (t.units && info && info->sm_count > 0 && t.units > static_cast<unsigned>(info->sm_count))
            fail(pair_text(t) + ": " + std::to_string(t.units) + " SMs, but " + r.on->id + " has " +
                 std::to_string(info->sm_count));
    }
    r.host_mem = check_host_mem(t, src.kind == VertexKind::NumaNode || dst.kind == VertexKind::NumaNode, fail);
    return r;
}

// "ce@gpu0 numa0->gpu0 pinned": two transfers with the same key are one lane twice.
std::string lane_key(const ResolvedTransfer& r) {
    return std::string(to_string(r.line.executor)) + ":" + std::to_string(r.line.units) + "@" + r.on->id + " " +
           r.src->id + "->" + r.dst->id + " " + r.host_mem;
}

void label_lanes(std::vector<ResolvedTransfer>& transfers) {
    std::map<std::string, int> per_pair;
    for (const auto& r : transfers) ++per_pair[r.src->id + "->" + r.dst->id];
    std::set<std::string> used;
    for (auto& r : transfers) {
        const std::string pair = r.src->id + "->" + r.dst->id;
        r.label = per_pair[pair] == 1 ? pair : pair + "/" + r.line.executor_text();
        if (!used.insert(r.label).second) r.label += "/" + r.host_mem;
        used.insert(r.label);
    }
}

std::string joined_ids(const Graph& graph, const std::set<const Vertex*>& vs) {
    std::string out;
    for (const Vertex& v : graph.vertices())
        if (vs.count(&v)) out += (out.empty() ? "" : "+") + v.id;
    return out;
}

// Each lane has its own source and destination buffer of the set's size.
void check_memory(const ResolvedSet& set, const std::string& source, const TransferSetMachine& machine) {
    if (!set.bytes || !machine.free_bytes) return;
    std::map<const Vertex*, std::uint64_t> buffers;
    for (const ResolvedTransfer& r : set.transfers) {
        for (const Vertex* v : {r.src, r.dst}) {
            const std::uint64_t n = ++buffers[v];
            const auto free = machine.free_bytes(*v);
            if (!free) continue;
            const double share = is_gpu(*v) ? kTransferDeviceShare : kTransferHostShare;
            const double usable = static_cast<double>(*free) * share;
            if (static_cast<double>(n) * static_cast<double>(set.bytes) > usable)
                Fail(source, r.line.line)("set '" + set.name + "' needs " + std::to_string(n) + " buffer(s) of " +
                                          format_size(set.bytes) + " on " + v->id + " by this line, more than " +
                                          std::to_string(static_cast<int>(share * 100)) + "% of its " +
                                          format_size(*free) + " free");
        }
    }
}

}  // namespace

LaneSpec ResolvedTransfer::lane() const {
    LaneSpec l;
    l.label = label;
    l.method = method_name::kTransferSet;
    l.src = src->id;
    l.dst = dst->id;
    l.params[ExecutorParam::key] = to_string(line.executor);
    if (!host_mem.empty()) l.params[HostMem::key] = host_mem;
    if (!peer.empty()) {
        l.params[Peer::key] = peer;
        l.params[Initiator::key] = on == src ? Initiator::Src : Initiator::Dst;
    }
    if (line.units) l.params[UnitsParam::key] = std::to_string(line.units);
    if (line.executor == TransferExecutor::Cpu) l.params[WorkersNumaParam::key] = std::to_string(on->os_index);
    return l;
}

bool ResolvedSet::needs_gpu() const {
    return std::any_of(transfers.begin(), transfers.end(), [](const ResolvedTransfer& r) { return r.gpu_executor(); });
}

std::optional<std::uint64_t> graph_memory_bytes(const Vertex& v) {
    const std::uint64_t bytes = v.gpu ? v.gpu->memory_bytes : v.numa ? v.numa->memory_bytes : 0;
    return bytes ? std::optional<std::uint64_t>(bytes) : std::nullopt;
}

std::vector<const Vertex*> transfer_endpoints(const Graph& graph) {
    std::vector<const Vertex*> out = load_host_nodes(graph);
    for (const Vertex* g : load_gpus(graph)) out.push_back(g);
    return out;
}

std::vector<ResolvedSet> resolve_transfer_sets(const Graph& graph, const TransferSetFile& file,
                                               const TransferSetMachine& machine) {
    std::vector<ResolvedSet> out;
    for (const TransferSet& set : file.sets) {
        ResolvedSet rs;
        rs.name = set.name, rs.line = set.line, rs.bytes = set.bytes;
        std::map<std::string, std::size_t> seen;  // lane key -> line
        std::set<const Vertex*> sources, destinations, all;
        for (const TransferLine& t : set.transfers) {
            const Fail fail(file.source, t.line);
            ResolvedTransfer r = resolve_line(graph, t, machine, fail);
            const auto [it, fresh] = seen.emplace(lane_key(r), t.line);
            if (!fresh)
                fail(pair_text(t) + ": the same transfer as line " + std::to_string(it->second) +
                     " of set '" + set.name + "' (a lane twice; give each lane its own endpoints or executor)");
            sources.insert(r.src), destinations.insert(r.dst);
            all.insert({r.src, r.dst, r.on});
            rs.transfers.push_back(std::move(r));
        }
        label_lanes(rs.transfers);
        rs.src_id = joined_ids(graph, sources);
        rs.dst_id = joined_ids(graph, destinations);
        for (const Vertex& v : graph.vertices())
            if (all.count(&v)) rs.vertices.push_back(&v);
        check_memory(rs, file.source, machine);
        out.push_back(std::move(rs));
    }
    return out;
}

}  // namespace hwcomm
