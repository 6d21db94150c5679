// um-prefetch: cudaMemPrefetchAsync of managed memory from where its pages
// are to the destination: host NUMA node -> GPU, GPU -> host NUMA node,
// GPU -> GPU. Before every sample (untimed) the pages get a fresh pattern and
// are put back on the source; after it the destination checks the data in
// place (a kernel on the destination GPU, or the CPU for a host destination).
#include <memory>

#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/managed_memory.hpp"
#include "methods/cuda/common/pattern_ops.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/um/single_shot_session.hpp"
#include "methods/cuda/um/um_methods.hpp"
#include "methods/cuda/um/um_plan.hpp"

namespace hwcomm::cuda {

namespace {

// The GPU end that queues and times the prefetch: the destination GPU, or
// the source GPU when the pages go to the host.
int stream_gpu(const Vertex& src, const Vertex& dst) {
    return dst.kind == VertexKind::Gpu ? cuda_ordinal(dst) : cuda_ordinal(src);
}

class PrefetchSession final : public SingleShotSession {
public:
    PrefetchSession(const Graph& graph, const Vertex& src, const Vertex& dst, const ManagedCap& cap,
                    const MethodOptions& options)
        : SingleShotSession(stream_gpu(src, dst), options.timing, cap.max_bytes),
          // A GPU end fills the pattern: the source GPU, or the destination when the pages start on the host.
          filler_(src.kind == VertexKind::Gpu ? cuda_ordinal(src) : cuda_ordinal(dst)),
          buffer_(cap.max_bytes),
          from_(src.kind == VertexKind::Gpu ? gpu_home(cuda_ordinal(src)) : host_home(src.os_index, buffer_)),
          to_(dst.kind == VertexKind::Gpu ? gpu_home(cuda_ordinal(dst)) : host_home(dst.os_index, buffer_)) {
        context_.update(um_context(graph, src, dst, cap, options, filler_, from_.name));
        context_["prefetch"] = {{"from", from_.name},
                                {"to", to_.name},
                                {"call", "cudaMemPrefetchAsync(ptr, bytes, location, 0, stream)"}};
        context_["verify"] = to_.is_host()
                                 ? "the CPU checks the pattern in place after every sample"
                                 : "a kernel on the destination GPU checks the pattern in place after every sample";
    }

private:
    void put_back(std::size_t bytes, std::uint64_t seed) override {
        place_pattern(buffer_, bytes, seed, filler_, from_, patterns_, stream());
    }
    void enqueue_transfer(std::size_t bytes, cudaStream_t s) override { prefetch(buffer_, bytes, to_, s); }
    std::string check_after(std::size_t bytes, std::uint64_t seed) override {
        if (to_.is_host()) return patterns_.check(BufferRef{buffer_.data(), nullptr, -1, false}, bytes, seed);
        return patterns_.check(BufferRef{nullptr, buffer_.data(), to_.location.id, false}, bytes, seed);
    }
    const void* pages() const override { return buffer_.data(); }

    int filler_;
    ManagedBuffer buffer_;
    PageHome from_, to_;
    PatternOps patterns_;
};

class UmPrefetch final : public UmCharacterizer<PrefetchSession> {
public:
    std::string name() const override { return "um-prefetch"; }
    std::string description() const override {
        return "cudaMemPrefetchAsync of managed memory: host NUMA node to GPU, GPU to host NUMA node, GPU to GPU "
               "(pages put back on the source before every sample)";
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"numa", "OS index of the host NUMA node the pages start on or are prefetched to"}};
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_um_prefetch() { return std::make_unique<UmPrefetch>(); }

}  // namespace hwcomm::cuda
