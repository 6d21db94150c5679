// lane-sweep: lane-count sweeps on shared resources (issue 27). On one
// resource per class (methods/load_scenarios.hpp: the host side of a NUMA
// node, a PCIe switch uplink, a host bridge, the NVLinks into one GPU behind
// an NVSwitch...) 1, 2, ..., all of the k routes that cross it run at once on
// the copy engines, every lane measured: per-lane and aggregate bandwidth as a
// function of the lane count, which the model fits as the resource's capacity.
// One record per lane count: param "lanes"; the endpoint set's note names the
// shared resource.
#include <memory>

#include "catalog/method_names.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/lanes/copy_lanes.hpp"
#include "methods/cuda/load/load_methods.hpp"
#include "methods/cuda/load/load_resources.hpp"
#include "methods/group_characterizer.hpp"
#include "methods/load_scenarios.hpp"

namespace hwcomm::cuda {

namespace {

class LaneSweepMethod final : public GroupCharacterizer {
public:
    std::string name() const override { return method_name::kLaneSweep; }
    std::string description() const override {
        return "1, 2, ..., all of the routes that share a resource (host side, PCIe switch, NVSwitch destination) "
               "at once, one resource per class: per-lane and aggregate bandwidth against the lane count";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"lanes", "how many routes run at once (1 .. all that share the resource)"},
                {"mode", "ce: copy engines (pinned host memory, peer access on)"}};
    }
    SizePolicy size_policy() const override {
        SizePolicy p;
        p.min_bytes = std::size_t{256} << 20;  // a capacity: the plateau, not latency
        p.points_per_octave = 1;
        // 256 and 512 MiB: the plateau twice (a transfer of 256 MiB lasts 0.7 ms
        // even at an NVLink's 400 GB/s, a few us of start-up 1% of it). 1 GiB
        // repeated it once more and doubled every lane's buffers (an 8-lane
        // set: 8 GiB pinned), a third of such a record's time on nvidia-h200-x2.
        p.max_bytes = std::size_t{512} << 20;
        return p;
    }
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override {
        std::vector<EndpointSet> out;
        for (const LaneSet& set : lane_sweeps(graph, default_load_resources(graph))) {
            EndpointSet s;
            s.src_id = set.src_id;
            s.dst_id = set.dst_id;
            for (const Route& r : set.routes) {
                s.vertices.push_back(r.src);
                s.vertices.push_back(r.dst);
            }
            s.note = std::to_string(set.routes.size()) + " of the routes sharing " + set.shared;
            s.applicability = Applicability::yes();
            out.push_back(std::move(s));
        }
        return out;
    }
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet& set, const MethodOptions&) const override {
        return {{{"lanes", std::to_string(set.vertices.size() / 2)}, {"mode", "ce"}}};
    }
    std::unique_ptr<TransferSession> prepare_set(const Graph& graph, const EndpointSet& set, const ParamSet&,
                                                 std::size_t max_bytes,
                                                 const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            std::vector<std::pair<int, unsigned>> device_buffers;
            unsigned host_buffers = 0;
            for (const Vertex* v : set.vertices) {
                if (v->kind == VertexKind::Gpu) device_buffers.push_back({cuda_ordinal(*v), 1});
                else ++host_buffers;
            }
            const SizeCap cap = plan_buffers(options, max_bytes, device_buffers, host_buffers);
            auto session = std::make_unique<ConcurrentCopySession>(options.timing, cap,
                                                                   Executor::CopyEngine, name());
            std::vector<const Vertex*> gpus;
            for (std::size_t i = 0; i + 1 < set.vertices.size(); i += 2) {
                const Vertex& src = *set.vertices[i];
                const Vertex& dst = *set.vertices[i + 1];
                if (src.kind == VertexKind::NumaNode) session->add_host_to_gpu(src, dst);
                else if (dst.kind == VertexKind::NumaNode) session->add_gpu_to_host(src, dst);
                else session->add_gpu_to_gpu(src, dst, Initiator::Writer);
            }
            for (const Vertex* v : set.vertices)
                if (v->kind == VertexKind::Gpu) gpus.push_back(v);
            session->context_ref().update(base_context(graph, gpus, cap, options));
            return session;
        });
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_lane_sweep() { return std::make_unique<LaneSweepMethod>(); }

}  // namespace hwcomm::cuda
