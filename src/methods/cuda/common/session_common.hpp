#pragma once
// What every CUDA method's prepare() does alike: size the buffers against
// free device and host memory, and start the record's context.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/sizing.hpp"

namespace hwcomm::cuda {

// `device_buffers`: (CUDA ordinal, buffers on it). Throws MeasurementError
// when not even one byte fits.
SizeCap plan_buffers(const MethodOptions& options, std::size_t asked,
                     const std::vector<std::pair<int, unsigned>>& device_buffers, unsigned host_buffers);

// {"runtime":{...}, "gpus":[...], "buffers":{...}, "timing_requested":...}
nlohmann::json base_context(const Graph& graph, const std::vector<const Vertex*>& gpus, const SizeCap& cap,
                            const MethodOptions& options);

// Runs `prepare`, turning any failure other than bad input (hwloc could not
// load, out of host memory...) into the MeasurementError the engine records:
// one record fails, the run goes on.
template <class F>
auto prepare_guarded(const std::string& method, F&& prepare) -> decltype(prepare()) {
    try {
        return prepare();
    } catch (const MeasurementError&) {
        throw;
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& e) {
        throw MeasurementError(method + ": " + e.what());
    }
}

// The CUDA GPU with the lowest ordinal in the graph, nullptr when none.
const Vertex* first_cuda_gpu(const Graph& graph);

}  // namespace hwcomm::cuda
