#pragma once
// Managed (unified) memory for the um-* methods: the buffer (RAII), where its
// pages are sent (a GPU, or a host NUMA node when the driver takes one), and
// the device attributes that decide how pages move.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "methods/cuda/common/pattern_ops.hpp"

namespace hwcomm::cuda {

class ManagedBuffer {
public:
    explicit ManagedBuffer(std::size_t bytes);  // cudaMallocManaged(Global); pages not populated yet
    ~ManagedBuffer();
    ManagedBuffer(const ManagedBuffer&) = delete;
    ManagedBuffer& operator=(const ManagedBuffer&) = delete;
    std::byte* data() const { return data_; }
    std::size_t size() const { return bytes_; }

private:
    std::byte* data_ = nullptr;
    std::size_t bytes_;
};

// A place pages can be prefetched to, with its name for the record.
struct PageHome {
    cudaMemLocation location{};
    std::string name;  // "gpu1", "host numa 0", "host (numa 0 refused: ...)"
    int numa = -1;     // host node asked for; -1 for a GPU
    bool is_host() const { return numa >= 0; }
};

PageHome gpu_home(int ordinal);
// A host NUMA node; falls back to plain host memory (and says so in the name)
// when the driver refuses a NUMA location for a one-page prefetch of `probe`.
PageHome host_home(int numa, const ManagedBuffer& probe);

// cudaMemPrefetchAsync (CUDA 13: location and flags) of data[0, bytes).
void prefetch(const ManagedBuffer& buffer, std::size_t bytes, const PageHome& to, cudaStream_t stream);

// Untimed, before a sample: the pattern of `seed` in buffer[0, bytes), then
// every page on `home`. The pages go in bulk to `filler` first, whose kernel
// writes the pattern in place (no page written where it would fault), then
// on to `home`. Returns when done.
void place_pattern(const ManagedBuffer& buffer, std::size_t bytes, std::uint64_t seed, int filler,
                   const PageHome& home, PatternOps& patterns, const Stream& stream);

// The attributes that change how managed pages behave on `ordinal`, and
// "" when the GPU supports what the um-* methods need, else why not.
nlohmann::json managed_attributes(int ordinal);
std::string why_no_managed_support(int ordinal);

// {"page_size_bytes", "gpus":{...attributes per GPU...}, "peer":{...}} for the record's context.
nlohmann::json managed_context(const std::vector<int>& ordinals);

}  // namespace hwcomm::cuda
