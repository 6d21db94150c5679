// um-demand: managed pages migrate because someone touches them, with no
// prefetch and no advice:
//   numaN -> gpu   a kernel on the GPU reads pages resident on host node N
//   gpuA  -> gpuB  a kernel on B reads pages resident on A
//   gpu   -> numaN one CPU thread bound to node N reads pages resident on the GPU
// The reader checks the pattern as it reads (the GPU kernel counts words that
// differ; the CPU's pass is checked after, in place). At one page the time is
// the cost of one first touch (metric time_per_page).
#include <memory>

#include "methods/cuda/common/device_info.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/managed_memory.hpp"
#include "methods/cuda/common/pattern_ops.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/common/touch_kernels.hpp"
#include "methods/cuda/common/touch_slots.hpp"
#include "methods/cuda/um/single_shot_session.hpp"
#include "methods/cuda/um/um_methods.hpp"
#include "methods/cuda/um/um_plan.hpp"
#include "platform/clock.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm::cuda {

namespace {

int src_or_dst_gpu(const Vertex& src, const Vertex& dst) {
    return src.kind == VertexKind::Gpu ? cuda_ordinal(src) : cuda_ordinal(dst);
}

class DemandSession final : public SingleShotSession {
public:
    DemandSession(const Graph& graph, const Vertex& src, const Vertex& dst, const ManagedCap& cap,
                  const MethodOptions& options)
        : SingleShotSession(dst.kind == VertexKind::Gpu ? cuda_ordinal(dst) : cuda_ordinal(src),
                            options.timing, cap.max_bytes),
          filler_(src_or_dst_gpu(src, dst)),
          buffer_(cap.max_bytes),
          home_(src.kind == VertexKind::Gpu ? gpu_home(cuda_ordinal(src)) : host_home(src.os_index, buffer_)) {
        context_.update(um_context(graph, src, dst, cap, options, filler_, home_.name));
        if (dst.kind == VertexKind::Gpu) {
            reader_ = cuda_ordinal(dst);
            slots_ = std::make_unique<TouchSlots>(reader_, sm_count_of(reader_));
            context_["touch"] = {{"by", "gpu" + std::to_string(reader_)},
                                 {"how", "read-check kernel: 16-byte loads, 4 in flight per thread, min(4 x SMs, "
                                         "needed) blocks of 512 threads; counts words that differ from the pattern"}};
            context_["verify"] = "the kernel's per-block mismatch counts (poisoned before every sample)";
        } else {
            cpu_numa_ = dst.os_index;
            topo_ = std::make_unique<HwlocTopology>();
            set_host_transfer([this](std::size_t bytes) { return cpu_read(bytes); },
                              "the CPU touches the pages: host clock around one thread's read of the range");
            context_["touch"] = {{"by", "one CPU thread bound to NUMA node " + std::to_string(cpu_numa_)},
                                 {"how", "reads every 8-byte word in order (a sum kept from the optimizer)"}};
            context_["verify"] = "the CPU checks the pattern in place after every sample";
        }
    }

private:
    void put_back(std::size_t bytes, std::uint64_t seed) override {
        place_pattern(buffer_, bytes, seed, filler_, home_, patterns_, stream());
        if (slots_) slots_->poison();
    }
    void enqueue_transfer(std::size_t bytes, cudaStream_t s) override {
        launch_read_check(s, buffer_.data(), bytes, seed(), slots_->data(), slots_->sm_count());
    }
    std::string check_after(std::size_t bytes, std::uint64_t seed) override {
        if (slots_) return slots_->check(bytes);
        return patterns_.check(BufferRef{buffer_.data(), nullptr, -1, false}, bytes, seed);
    }
    const void* pages() const override { return buffer_.data(); }

    double cpu_read(std::size_t bytes) {
        ScopedThreadBinding bind(*topo_, cpu_numa_);
        const double t0 = steady_seconds();
        const auto* words = reinterpret_cast<const volatile std::uint64_t*>(buffer_.data());
        std::uint64_t sum = 0;
        for (std::size_t w = 0; w < bytes / 8; ++w) sum += words[w];
        for (std::size_t i = bytes / 8 * 8; i < bytes; ++i) sum += static_cast<std::uint8_t>(buffer_.data()[i]);
        sink_ = sum;
        return steady_seconds() - t0;
    }

    int filler_;
    ManagedBuffer buffer_;
    PageHome home_;
    PatternOps patterns_;
    int reader_ = -1;
    std::unique_ptr<TouchSlots> slots_;  // GPU reader
    int cpu_numa_ = -1;                  // CPU reader
    std::unique_ptr<HwlocTopology> topo_;
    volatile std::uint64_t sink_ = 0;
};

class UmDemand final : public UmCharacterizer<DemandSession> {
public:
    std::string name() const override { return "um-demand"; }
    std::string description() const override {
        return "managed pages migrated on demand: a GPU kernel reading pages resident on a host NUMA node or on "
               "another GPU, or a CPU thread on a NUMA node reading pages resident on a GPU (no prefetch, no advice)";
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"numa", "OS index of the host NUMA node the pages start on (GPU reader) or of the reading CPU "
                         "thread (GPU to host)"}};
    }
};

}  // namespace

std::unique_ptr<Characterizer> make_um_demand() { return std::make_unique<UmDemand>(); }

}  // namespace hwcomm::cuda
