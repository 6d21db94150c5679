#include "methods/cuda/common/session_common.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "platform/host_info.hpp"

namespace hwcomm::cuda {

SizeCap plan_buffers(const MethodOptions& options, std::size_t asked,
                     const std::vector<std::pair<int, unsigned>>& device_buffers, unsigned host_buffers) {
    SizeCapInputs in;
    in.asked = asked;
    in.pool_half_gpu_memory = options.pool_half_gpu_memory;
    for (const auto& [ordinal, buffers] : device_buffers) {
        // Two buffers of one pair may sit on the same GPU (same-GPU copies).
        bool merged = false;
        for (auto& d : in.devices)
            if (d.ordinal == ordinal) {
                d.buffers += buffers;
                merged = true;
            }
        if (merged) continue;
        const DeviceMemInfo mem = device_memory(ordinal);
        in.devices.push_back({ordinal, mem.free_bytes, mem.total_bytes, buffers});
    }
    in.host_buffers = host_buffers;
    in.host_available = host_buffers ? available_memory_bytes() : 0;
    SizeCap cap = cap_buffer_bytes(in);
    if (cap.max_bytes == 0)
        throw MeasurementError("no memory for the transfer buffers (limited by " + cap.limited_by + ")");
    return cap;
}

nlohmann::json base_context(const Graph& graph, const std::vector<const Vertex*>& gpus, const SizeCap& cap,
                            const MethodOptions& options) {
    nlohmann::json ctx;
    ctx["runtime"] = runtime_facts();
    ctx["gpus"] = nlohmann::json::array();
    for (const Vertex* g : gpus) ctx["gpus"].push_back(gpu_context(graph, *g));
    ctx["buffers"] = {{"device_buffer_bytes", cap.buffer_bytes},
                      {"host_buffer_bytes", cap.host_bytes},
                      {"max_bytes", cap.max_bytes},
                      {"limited_by", cap.limited_by},
                      {"pool_half_gpu_memory", options.pool_half_gpu_memory}};
    ctx["timing_requested"] = to_string(options.timing);
    return ctx;
}

const Vertex* first_cuda_gpu(const Graph& graph) {
    const auto gpus = cuda_gpus(graph);
    return gpus.empty() ? nullptr : gpus.front();
}

}  // namespace hwcomm::cuda
