// The concurrency methods: several transfers at once, each a lane of one
// measurement, with per-lane and aggregate bandwidth (bytes of every lane over
// the common window). Each runs on the copy engines ("ce") and as copy kernels
// ("sm").
//   all-to-host           every GPU to one NUMA node
//   host-to-all           one NUMA node to every GPU
//   all-to-one            every other GPU writes into one GPU (issued by the sources)
//   one-to-all            every other GPU reads from one GPU (issued by the readers)
//   pairs-sharing-a-link  two transfers whose paths share their bottleneck edge, crossed the same way
#include <algorithm>
#include <memory>

#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/concurrency/concurrency_methods.hpp"
#include "methods/cuda/lanes/copy_lanes.hpp"
#include "methods/group_characterizer.hpp"
#include "methods/shared_links.hpp"

namespace hwcomm::cuda {

namespace {

std::vector<const Vertex*> host_nodes(const Graph& graph) {
    std::vector<const Vertex*> out;
    for (const Vertex* v : graph.of_kind(VertexKind::NumaNode))
        if (why_not_host_node(*v).empty()) out.push_back(v);
    return out;
}

const std::vector<std::string>& copy_modes() {
    static const std::vector<std::string> modes{"ce", "sm"};
    return modes;
}

// Shared by every concurrency method: the "mode" parameter and the session.
class ConcurrencyMethod : public GroupCharacterizer {
public:
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet&, const MethodOptions&) const override {
        std::vector<ParamSet> sets;
        for (const auto& mode : copy_modes()) sets.push_back({{"mode", mode}});
        return sets;
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"mode", "ce: copy engines (cudaMemcpyAsync / cudaMemcpyPeerAsync); sm: copy kernels through peer "
                         "or mapped host pointers"}};
    }
    std::unique_ptr<TransferSession> prepare_set(const Graph& graph, const EndpointSet& set, const ParamSet& params,
                                                 std::size_t max_bytes,
                                                 const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Executor engine = executor_from_string(param_or_throw(params, "mode", copy_modes(), name()));
            std::vector<std::pair<int, unsigned>> device_buffers;
            unsigned host_buffers = 0;
            count_buffers(set, device_buffers, host_buffers);
            const SizeCap cap = plan_buffers(options, max_bytes, device_buffers, host_buffers);
            auto session = std::make_unique<ConcurrentCopySession>(options.timing, cap,
                                                                   engine, name());
            add_lanes(graph, set, *session);
            std::vector<const Vertex*> gpus;
            for (const Vertex* v : set.vertices)
                if (v->kind == VertexKind::Gpu) gpus.push_back(v);
            session->context_ref().update(base_context(graph, gpus, cap, options));
            return session;
        });
    }

protected:
    // Device buffers per GPU and host buffers the set's lanes need (one of each per lane end).
    virtual void count_buffers(const EndpointSet& set, std::vector<std::pair<int, unsigned>>& device,
                               unsigned& host) const = 0;
    virtual void add_lanes(const Graph& graph, const EndpointSet& set, ConcurrentCopySession& session) const = 0;
};

// all-to-host / host-to-all: every CUDA GPU against one NUMA node.
class HostFanMethod final : public ConcurrencyMethod {
public:
    explicit HostFanMethod(bool to_host) : to_host_(to_host) {}
    std::string name() const override { return to_host_ ? "all-to-host" : "host-to-all"; }
    std::string description() const override {
        return to_host_ ? "every GPU copies to pinned memory on one NUMA node at once (one lane per GPU)"
                        : "one NUMA node's pinned memory is copied to every GPU at once (one lane per GPU)";
    }
    std::vector<VertexKind> src_kinds() const override {
        return {to_host_ ? VertexKind::Gpu : VertexKind::NumaNode};
    }
    std::vector<VertexKind> dst_kinds() const override {
        return {to_host_ ? VertexKind::NumaNode : VertexKind::Gpu};
    }
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override {
        const auto gpus = cuda_gpus(graph);
        std::vector<EndpointSet> out;
        for (const Vertex* numa : host_nodes(graph)) {
            EndpointSet s;
            s.src_id = to_host_ ? "gpu*" : numa->id;
            s.dst_id = to_host_ ? numa->id : "gpu*";
            s.vertices.push_back(numa);
            for (const Vertex* g : gpus) s.vertices.push_back(g);
            s.applicability = gpus.size() >= 2 ? Applicability::yes()
                                               : Applicability::no("needs two or more CUDA GPUs (" +
                                                                   std::to_string(gpus.size()) + " here)");
            out.push_back(std::move(s));
        }
        return out;
    }

private:
    void count_buffers(const EndpointSet& set, std::vector<std::pair<int, unsigned>>& device,
                       unsigned& host) const override {
        for (const Vertex* v : set.vertices)
            if (v->kind == VertexKind::Gpu) {
                device.push_back({cuda_ordinal(*v), 1});
                ++host;
            }
    }
    void add_lanes(const Graph&, const EndpointSet& set, ConcurrentCopySession& session) const override {
        const Vertex* numa = set.vertices.front();
        for (const Vertex* v : set.vertices) {
            if (v->kind != VertexKind::Gpu) continue;
            if (to_host_) session.add_gpu_to_host(*v, *numa);
            else session.add_host_to_gpu(*numa, *v);
        }
    }

    bool to_host_;
};

// all-to-one / one-to-all: every other CUDA GPU with a peer path against one GPU.
class PeerFanMethod final : public ConcurrencyMethod {
public:
    explicit PeerFanMethod(bool to_one) : to_one_(to_one) {}
    std::string name() const override { return to_one_ ? "all-to-one" : "one-to-all"; }
    std::string description() const override {
        return to_one_ ? "every other GPU writes into one GPU at once (peer access on; lanes issued by the sources)"
                       : "every other GPU reads from one GPU at once (peer access on; lanes issued by the readers)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::Gpu}; }
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override {
        const auto gpus = cuda_gpus(graph);
        std::vector<EndpointSet> out;
        for (const Vertex* one : gpus) {
            EndpointSet s;
            s.src_id = to_one_ ? "gpu*-" + one->id : one->id;
            s.dst_id = to_one_ ? one->id : "gpu*-" + one->id;
            s.vertices.push_back(one);
            std::string without;
            for (const Vertex* g : gpus) {
                if (g == one) continue;
                const PeerPath path = peer_path_in_graph(graph, *g, *one);
                if (path.possible) s.vertices.push_back(g);
                else without += (without.empty() ? "" : ", ") + g->id + " (" + path.via + ")";
            }
            if (!without.empty()) s.note = "left out, no peer path: " + without;
            s.applicability = s.vertices.size() >= 2
                                  ? Applicability::yes()
                                  : Applicability::no("needs another CUDA GPU with a peer path to " + one->id);
            out.push_back(std::move(s));
        }
        return out;
    }

private:
    void count_buffers(const EndpointSet& set, std::vector<std::pair<int, unsigned>>& device,
                       unsigned&) const override {
        const unsigned others = static_cast<unsigned>(set.vertices.size() - 1);
        device.push_back({cuda_ordinal(*set.vertices.front()), others});
        for (std::size_t i = 1; i < set.vertices.size(); ++i) device.push_back({cuda_ordinal(*set.vertices[i]), 1});
    }
    void add_lanes(const Graph&, const EndpointSet& set, ConcurrentCopySession& session) const override {
        const Vertex* one = set.vertices.front();
        for (std::size_t i = 1; i < set.vertices.size(); ++i) {
            if (to_one_) session.add_gpu_to_gpu(*set.vertices[i], *one, Initiator::Writer);
            else session.add_gpu_to_gpu(*one, *set.vertices[i], Initiator::Reader);
        }
    }

    bool to_one_;
};

// Two transfers whose paths share their bottleneck edge, crossed the same way:
// host-to-GPU with host-to-GPU, GPU-to-host with GPU-to-host, GPU-to-GPU with GPU-to-GPU.
class PairsSharingALink final : public ConcurrencyMethod {
public:
    std::string name() const override { return "pairs-sharing-a-link"; }
    std::string description() const override {
        return "two transfers at once whose paths share their bottleneck edge (two GPUs behind one PCIe switch or "
               "host bridge, two copies through one NVLink, two GPUs across one SMP link)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override {
        const auto gpus = cuda_gpus(graph);
        const auto hosts = host_nodes(graph);
        std::vector<Route> h2d, d2h, d2d;
        for (const Vertex* n : hosts)
            for (const Vertex* g : gpus) {
                h2d.push_back({n, g});
                d2h.push_back({g, n});
            }
        for (const Vertex* a : gpus)
            for (const Vertex* b : gpus)
                if (a != b && peer_path_in_graph(graph, *a, *b).possible) d2d.push_back({a, b});
        std::vector<EndpointSet> out;
        for (const auto* routes : {&h2d, &d2h, &d2d})
            for (const SharedPair& p : pairs_sharing_bottleneck(graph, *routes)) {
                EndpointSet s;
                s.src_id = p.first.src == p.second.src ? p.first.src->id : p.first.src->id + "+" + p.second.src->id;
                s.dst_id = p.first.dst == p.second.dst ? p.first.dst->id : p.first.dst->id + "+" + p.second.dst->id;
                s.vertices = {p.first.src, p.first.dst, p.second.src, p.second.dst};
                s.note = p.describe(graph);
                s.shared_link = p.shared_link(graph);
                s.applicability = Applicability::yes();
                out.push_back(std::move(s));
            }
        return out;
    }
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet&, const MethodOptions&) const override {
        return {{{"mode", "ce"}}};
    }

private:
    void count_buffers(const EndpointSet& set, std::vector<std::pair<int, unsigned>>& device,
                       unsigned& host) const override {
        for (const Vertex* v : set.vertices) {
            if (v->kind == VertexKind::Gpu) device.push_back({cuda_ordinal(*v), 1});
            else ++host;
        }
    }
    void add_lanes(const Graph&, const EndpointSet& set, ConcurrentCopySession& session) const override {
        for (std::size_t i = 0; i + 1 < set.vertices.size(); i += 2) {
            const Vertex& src = *set.vertices[i];
            const Vertex& dst = *set.vertices[i + 1];
            if (src.kind == VertexKind::NumaNode) session.add_host_to_gpu(src, dst);
            else if (dst.kind == VertexKind::NumaNode) session.add_gpu_to_host(src, dst);
            else session.add_gpu_to_gpu(src, dst, Initiator::Writer);
        }
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_all_to_host() { return std::make_unique<HostFanMethod>(true); }
std::unique_ptr<Characterizer> make_host_to_all() { return std::make_unique<HostFanMethod>(false); }
std::unique_ptr<Characterizer> make_all_to_one() { return std::make_unique<PeerFanMethod>(true); }
std::unique_ptr<Characterizer> make_one_to_all() { return std::make_unique<PeerFanMethod>(false); }
std::unique_ptr<Characterizer> make_pairs_sharing_a_link() { return std::make_unique<PairsSharingALink>(); }

}  // namespace hwcomm::cuda
