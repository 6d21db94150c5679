// zero-copy-read, zero-copy-write: a GPU kernel that only reads, or only
// writes, memory it reaches through a pointer: mapped pinned host memory on a
// NUMA node (cudaHostAlloc Mapped, or NUMA-bound and cudaHostRegister'd), or a
// peer GPU's memory (read = pull, write = push). Unlike sm-copy-* there is no
// second buffer: one direction of the link, nothing else.
//   zero-copy-read   numaN|gpuA -> gpuB   kernel on the destination (reader)
//   zero-copy-write  gpuA -> numaN|gpuB   kernel on the source (writer)
#include <memory>

#include "core/error.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/session_common.hpp"
#include "methods/cuda/zerocopy/zero_copy_methods.hpp"
#include "methods/cuda/zerocopy/zero_copy_session.hpp"

namespace hwcomm::cuda {

namespace {

const std::vector<std::string>& zero_copy_host_kinds() {
    static const std::vector<std::string> kinds{"pinned", "registered"};
    return kinds;
}

class ZeroCopyMethod final : public Characterizer {
public:
    explicit ZeroCopyMethod(TouchDirection dir) : dir_(dir) {}
    std::string name() const override { return read() ? "zero-copy-read" : "zero-copy-write"; }
    std::string description() const override {
        return read() ? "kernel on the destination GPU reading (only) mapped pinned host memory on a NUMA node or "
                        "the source GPU's memory through the peer pointer (pull)"
                      : "kernel on the source GPU writing (only) mapped pinned host memory on a NUMA node or the "
                        "destination GPU's memory through the peer pointer (push)";
    }
    std::vector<VertexKind> src_kinds() const override {
        if (read()) return {VertexKind::NumaNode, VertexKind::Gpu};
        return {VertexKind::Gpu};
    }
    std::vector<VertexKind> dst_kinds() const override {
        if (read()) return {VertexKind::Gpu};
        return {VertexKind::NumaNode, VertexKind::Gpu};
    }
    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        const Vertex& exec = read() ? dst : src;
        const Vertex& far = read() ? src : dst;
        if (exec.kind != VertexKind::Gpu)
            return Applicability::no(read() ? "the reader (destination) must be a GPU"
                                            : "the writer (source) must be a GPU");
        if (auto why = why_not_cuda_gpu(exec); !why.empty()) return Applicability::no(why);
        if (far.kind == VertexKind::NumaNode) {
            if (auto why = why_not_host_node(far); !why.empty()) return Applicability::no(why);
            return Applicability::yes();
        }
        if (auto why = why_not_cuda_gpu(far); !why.empty()) return Applicability::no(why);
        if (far.id == exec.id) return Applicability::no("same GPU: no peer pointer to go through");
        const PeerPath path = peer_path_in_graph(graph, exec, far);
        if (!path.possible) return Applicability::no("needs peer access: " + path.via);
        return Applicability{true, "peer path: " + path.via};
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex& dst,
                                         const MethodOptions&) const override {
        const Vertex& far = read() ? src : dst;
        if (far.kind == VertexKind::NumaNode) return host_parameter_sets(far, zero_copy_host_kinds());
        return {{{"peer", "on"}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"host_mem", "pinned: cudaHostAlloc(Portable|Mapped) by a thread bound to the node | registered: "
                             "NUMA-bound, cudaHostRegister(Mapped)"},
                {"numa", "OS index of the NUMA node holding the host buffer"},
                {"peer", "on (always: the kernel dereferences the peer GPU's pointer)"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        return prepare_guarded(name(), [&]() -> std::unique_ptr<TransferSession> {
            const Vertex& exec = read() ? dst : src;
            const Vertex& far = read() ? src : dst;
            if (far.kind == VertexKind::NumaNode) {
                const HostMemKind kind = host_mem_kind_from_string(
                    param_or_throw(params, "host_mem", zero_copy_host_kinds(), name()));
                const SizeCap cap = plan_buffers(options, max_bytes, {}, 1);
                return std::make_unique<ZeroCopySession>(graph, far, exec, dir_, kind, cap, options);
            }
            const SizeCap cap = plan_buffers(options, max_bytes, {{cuda_ordinal(far), 1}}, 0);
            return std::make_unique<ZeroCopySession>(graph, far, exec, dir_, cap, options);
        });
    }

private:
    bool read() const { return dir_ == TouchDirection::Read; }
    TouchDirection dir_;
};

}  // namespace

std::unique_ptr<Characterizer> make_zero_copy_read() { return std::make_unique<ZeroCopyMethod>(TouchDirection::Read); }
std::unique_ptr<Characterizer> make_zero_copy_write() {
    return std::make_unique<ZeroCopyMethod>(TouchDirection::Write);
}

}  // namespace hwcomm::cuda
