#include "methods/cuda/lanes/round_session.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"

namespace hwcomm::cuda {

std::unique_ptr<TransferSession> prepare_copy_round(const Graph& graph, const std::vector<RoundLane>& lanes,
                                                    Executor executor, Initiator initiator,
                                                    const std::string& method, std::size_t max_bytes,
                                                    const MethodOptions& options) {
    return prepare_guarded(method, [&]() -> std::unique_ptr<TransferSession> {
        if (lanes.empty()) throw MeasurementError(method + ": a round without lanes");
        std::map<int, unsigned> per_gpu;  // a source and a destination buffer per lane
        std::vector<const Vertex*> gpus;
        for (const RoundLane& lane : lanes) {
            for (const Vertex* v : {lane.src, lane.dst}) {
                if (!v) throw MeasurementError(method + ": a round lane without an end");
                if (auto why = why_not_cuda_gpu(*v); !why.empty()) throw MeasurementError(method + ": " + why);
                if (std::find(gpus.begin(), gpus.end(), v) == gpus.end()) gpus.push_back(v);
            }
            if (lane.src == lane.dst) throw MeasurementError(method + ": a round lane within one GPU");
            ++per_gpu[cuda_ordinal(*lane.src)];
            ++per_gpu[cuda_ordinal(*lane.dst)];
        }
        const std::vector<std::pair<int, unsigned>> device_buffers(per_gpu.begin(), per_gpu.end());
        const SizeCap cap = plan_buffers(options, max_bytes, device_buffers, 0);
        auto session = std::make_unique<ConcurrentCopySession>(options.timing, cap, executor, method);
        for (const RoundLane& lane : lanes) session->add_gpu_to_gpu(*lane.src, *lane.dst, initiator);
        session->context_ref().update(base_context(graph, gpus, cap, options));
        session->context_ref()["round_lanes"] = lanes.size();
        return session;
    });
}

}  // namespace hwcomm::cuda
