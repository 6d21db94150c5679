#include "methods/cuda/transfers/transfer_set_gpu.hpp"

#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/transfers/transfer_set_session.hpp"

namespace hwcomm::cuda {

namespace {

std::unique_ptr<TransferSession> make_session(const Graph& graph, const ResolvedSet& set, std::size_t max_bytes,
                                              const MethodOptions& options) {
    return prepare_guarded("transfer-set", [&]() -> std::unique_ptr<TransferSession> {
        std::vector<std::pair<int, unsigned>> device;
        unsigned host = 0;
        TransferSetSession::count_buffers(set, device, host);
        const SizeCap cap = plan_buffers(options, max_bytes, device, host);
        auto session = std::make_unique<TransferSetSession>(options.timing, cap, set,
                                                            options.values.flag("smt"));
        std::vector<const Vertex*> gpus;
        for (const Vertex* v : set.vertices)
            if (v->kind == VertexKind::Gpu) gpus.push_back(v);
        session->context_ref().update(base_context(graph, gpus, cap, options));
        return session;
    });
}

std::optional<std::uint64_t> free_bytes(const Vertex& v) {
    const int ordinal = cuda_ordinal(v);
    if (ordinal < 0) return std::nullopt;
    try {
        return device_memory(ordinal).free_bytes;
    } catch (const std::exception&) {
        return std::nullopt;  // the run's own checks report a GPU CUDA cannot open
    }
}

}  // namespace

TransferSetGpuBackend transfer_set_backend() { return {make_session, free_bytes, false}; }

}  // namespace hwcomm::cuda
