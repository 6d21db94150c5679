// under-load: the default load scenarios of the machine's graph. Resources (an
// edge crossed the same way, or the host side of a NUMA node) that k >= 2
// routes of one direction share fall into classes (methods/load_scenarios.hpp);
// on one resource per class, one route per class of its routes is measured
// alone and with 1, half and all of the others loading it (background lanes,
// the set U). One record per scenario: params "loads" (how many) and "with"
// (which).
#include <memory>

#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/lanes/copy_lanes.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/load/load_resources.hpp"
#include "methods/cuda/load/route_lanes.hpp"
#include "methods/group_characterizer.hpp"
#include "methods/load_scenarios.hpp"

namespace hwcomm::cuda {

namespace {

LoadDirection direction_of(const Vertex& src, const Vertex& dst) {
    if (src.kind == VertexKind::NumaNode) return LoadDirection::HostToGpu;
    if (dst.kind == VertexKind::NumaNode) return LoadDirection::GpuToHost;
    return LoadDirection::GpuToGpu;
}

class UnderLoadMethod final : public GroupCharacterizer {
public:
    std::string name() const override { return "under-load"; }
    std::string description() const override {
        return "routes that share an edge (or a NUMA node's host side), one per class of resource and route: alone, "
               "then with 1, half and all of the others loading it (copy engines; U recorded as load lanes)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"loads", "how many other routes load the shared resource (0: alone)"},
                {"with", "the loading routes, comma-separated ('none' alone)"}};
    }
    SizePolicy size_policy() const override {
        SizePolicy p;
        p.min_bytes = std::size_t{256} << 20;  // the question is bandwidth under load, not latency
        p.points_per_octave = 1;
        // 256 and 512 MiB, as lane-sweep (method_lane_sweep.cpp says why not 1 GiB).
        p.max_bytes = std::size_t{512} << 20;
        return p;
    }
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override {
        const std::vector<SharedResource> resources = default_load_resources(graph);
        std::vector<EndpointSet> out;
        for (const LoadScenario& sc : class_load_scenarios(graph, resources)) {
            EndpointSet s;
            s.src_id = sc.measured.src->id;
            s.dst_id = sc.measured.dst->id;
            s.vertices = {sc.measured.src, sc.measured.dst};
            for (const Route& r : sc.loads) {
                s.vertices.push_back(r.src);
                s.vertices.push_back(r.dst);
            }
            s.note = sc.loads.empty() ? "alone" : std::to_string(sc.loads.size()) + " other route(s) loading " + sc.shared;
            s.applicability = Applicability::yes();
            out.push_back(std::move(s));
        }
        return out;
    }
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet& set, const MethodOptions&) const override {
        std::string with;
        for (std::size_t i = 2; i + 1 < set.vertices.size(); i += 2)
            with += (with.empty() ? "" : ",") + set.vertices[i]->id + "->" + set.vertices[i + 1]->id;
        return {{{"loads", std::to_string(set.vertices.size() / 2 - 1)}, {"with", with.empty() ? "none" : with}}};
    }
    std::unique_ptr<TransferSession> prepare_set(const Graph& graph, const EndpointSet& set, const ParamSet&,
                                                 std::size_t max_bytes,
                                                 const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Vertex& src = *set.vertices.at(0);
            const Vertex& dst = *set.vertices.at(1);
            const SizeCap cap = plan_route_buffers(options, max_bytes, src, dst, 1);
            auto session = std::make_unique<ConcurrentCopySession>(options.timing, cap,
                                                                   Executor::CopyEngine, name());
            switch (direction_of(src, dst)) {
                case LoadDirection::HostToGpu: session->add_host_to_gpu(src, dst); break;
                case LoadDirection::GpuToHost: session->add_gpu_to_host(src, dst); break;
                case LoadDirection::GpuToGpu: session->add_gpu_to_gpu(src, dst, Initiator::Writer); break;
            }
            std::vector<LoadRoute> loads;
            for (std::size_t i = 2; i + 1 < set.vertices.size(); i += 2) {
                const Vertex& ls = *set.vertices[i];
                const Vertex& ld = *set.vertices[i + 1];
                loads.push_back({&ls, &ld, direction_of(ls, ld), "under-load"});
            }
            if (!loads.empty()) session->attach_load(graph, loads, options);
            std::vector<const Vertex*> gpus;
            for (const Vertex* v : set.vertices)
                if (v->kind == VertexKind::Gpu) gpus.push_back(v);
            session->context_ref().update(base_context(graph, gpus, cap, options));
            return session;
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_under_load() { return std::make_unique<UnderLoadMethod>(); }

}  // namespace hwcomm::cuda
