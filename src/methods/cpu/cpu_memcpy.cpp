// memcpy: std::memcpy from a buffer on the source node to a buffer on the
// destination node, by one thread or by every core of the source node
// (threads=single|multi), the threads bound to cores of the source node.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "catalog/method_names.hpp"
#include "core/error.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/memcpy_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"

namespace hwcomm {

MemcpySession::MemcpySession(int src, int dst, std::size_t max_bytes, bool multi, const MethodOptions& options)
    : CpuSession(max_bytes, src, options.values.flag("smt")), src_(topo_, src, max_bytes), dst_(topo_, dst, max_bytes), workers_(1) {
    if (multi) workers_ = capped_workers(options.max_workers);
    write_pattern(max_bytes, seed());
    poison(dst_.data(), max_bytes, seed(), untimed_team());  // once: later samples find an earlier sample's pattern there
    note_buffer("src_buffer", src_);
    note_buffer("dst_buffer", dst_);
    context_["workers"] = workers_;
    note_byte_convention({"each byte copied once", "Copy", 2});
}

std::string MemcpySession::verify(std::size_t bytes, const std::string&) {
    return pattern_mismatch(dst_.data(), bytes, seed(), untimed_team());
}

// The destination is not poisoned again: it holds an earlier seed's pattern,
// which differs from this seed's in every word (pattern.hpp).
void MemcpySession::write_pattern(std::size_t bytes, std::uint64_t seed) {
    fill_pattern(src_.data(), bytes, seed, fill_stores(bytes), untimed_team());
}

void MemcpySession::copy_part(std::byte* dst, const std::byte* src, std::size_t begin, std::size_t end, std::size_t) {
    std::memcpy(dst + begin, src + begin, end - begin);
}

double MemcpySession::run_timed(std::size_t bytes, const std::string&, std::size_t reps) {
    // Chunks on 64-byte boundaries so threads never share a cache line.
    const std::size_t lines = (bytes + 63) / 64;
    std::byte* d = dst_.data();
    const std::byte* s = src_.data();
    return run_workers(workers_, reps, [&](unsigned rank, unsigned team) {
        auto [b, e] = chunk_of(lines, rank, team);
        const std::size_t begin = std::min(bytes, b * 64), end = std::min(bytes, e * 64);
        if (end > begin) copy_part(d, s, begin, end, bytes);
    });
}

namespace {

class Memcpy : public NumaPairMethod {
public:
    std::string name() const override { return method_name::kCpuMemcpy; }
    std::string description() const override {
        return "std::memcpy from a buffer on the source node to one on the destination node, "
               "threads bound to cores of the source node";
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex&,
                                         const MethodOptions& options) const override {
        const bool one_core = (src.numa && src.numa->cores == 1 && !options.values.flag("smt")) || options.max_workers == 1;
        if (one_core) return {ParamSet{{"threads", "single"}}};
        return {ParamSet{{"threads", "single"}}, ParamSet{{"threads", "multi"}}};
    }
    std::map<std::string, std::string> parameter_docs() const override {
        return {{"threads", "single: one thread; multi: one thread per core of the source node "
                            "(per PU with --smt; capped by --max-workers)"}};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex& src, const Vertex& dst, const ParamSet& params,
                                             std::size_t max_bytes, const MethodOptions& options) const override {
        auto it = params.find("threads");
        const bool multi = it != params.end() && it->second == "multi";
        return std::make_unique<MemcpySession>(numa_index_of(src), numa_index_of(dst), max_bytes, multi, options);
    }

protected:
    CpuEnd cpu_end() const override { return CpuEnd::Src; }
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_memcpy() { return std::make_unique<Memcpy>(); }

}  // namespace hwcomm
