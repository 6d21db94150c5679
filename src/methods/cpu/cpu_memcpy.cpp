// memcpy: std::memcpy from a buffer on the source node to a buffer on the
// destination node, by one thread or by every core of the source node
// (threads=single|multi), the threads bound to the source node.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"

namespace hwcomm {

namespace {

class MemcpySession : public CpuSession {
public:
    MemcpySession(int src, int dst, std::size_t max_bytes, unsigned workers)
        : CpuSession(max_bytes), src_node_(src), src_(topo_, src, max_bytes), dst_(topo_, dst, max_bytes),
          workers_(workers) {
        fill_pattern(src_.data(), src_.size());
        note_buffer("src_buffer", src_);
        note_buffer("dst_buffer", dst_);
        context_["workers_node"] = src;
        context_["workers"] = workers_;
    }
    std::string verify(std::size_t bytes, const std::string& variant) override {
        std::memset(dst_.data(), 0, bytes);  // poison: the check must see this transfer's bytes
        run_timed(bytes, variant, 1);
        if (std::memcmp(dst_.data(), src_.data(), bytes) != 0) return "destination differs from the source";
        return {};
    }

protected:
    double run_timed(std::size_t bytes, const std::string&, std::size_t reps) override {
        // Chunks on 64-byte boundaries so threads never share a cache line.
        const std::size_t lines = (bytes + 63) / 64;
        std::byte* d = dst_.data();
        const std::byte* s = src_.data();
        BoundRun run = run_bound_parallel(topo_, src_node_, workers_, reps, [&](unsigned rank, unsigned team) {
            auto [b, e] = chunk_of(lines, rank, team);
            const std::size_t begin = std::min(bytes, b * 64), end = std::min(bytes, e * 64);
            if (end > begin) std::memcpy(d + begin, s + begin, end - begin);
        });
        note_binding(run.unbound_workers, run.note);
        return run.seconds;
    }

private:
    int src_node_;
    NumaBuffer src_;
    NumaBuffer dst_;
    unsigned workers_;
};

class Memcpy : public NumaPairMethod {
public:
    std::string name() const override { return "memcpy"; }
    std::string description() const override {
        return "std::memcpy from a buffer on the source node to one on the destination node, "
               "threads bound to the source node";
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex&,
                                         const MethodOptions& options) const override {
        const bool one_core = (src.numa && src.numa->cores == 1) || options.max_workers == 1;
        if (one_core) return {ParamSet{{"threads", "single"}}};
        return {ParamSet{{"threads", "single"}}, ParamSet{{"threads", "multi"}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"threads", "single: one thread; multi: one thread per core of the source node (capped by --max-workers)"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet& params,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        const int s = numa_index_of(src);
        unsigned workers = 1;
        if (auto it = params.find("threads"); it != params.end() && it->second == "multi") {
            HwlocTopology topo;
            workers = std::max(1u, topo.cores_of_numa(s));
            if (options.max_workers > 0) workers = std::min(workers, options.max_workers);
        }
        return std::make_unique<MemcpySession>(s, numa_index_of(dst), max_bytes, workers);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_memcpy() { return std::make_unique<Memcpy>(); }

}  // namespace hwcomm
