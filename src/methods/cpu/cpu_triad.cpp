// cpu-triad: STREAM's Triad a = b + q*c. Workers bound to cores of the source
// node read b and c on the source node and write a on the destination node
// (plain or non-temporal stores), each worker its own contiguous chunk. The
// size is one array's bytes (8-byte doubles); STREAM counts three arrays.
// b and c hold small integers and q = 3, so every a[i] is exact whether the
// loop fuses the multiply-add or not, and the check compares exactly.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "catalog/method_names.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"
#include "platform/parallel_chunks.hpp"

namespace hwcomm {

namespace {

constexpr double kScalar = 3.0;
constexpr std::size_t kParallelBytes = std::size_t{4} << 20;

// Integers below 2^24: b + 3c stays exact in a double.
double b_value(std::uint64_t mask, std::size_t i) { return static_cast<double>(pattern_word(mask, i) >> 40); }
double c_value(std::uint64_t mask, std::size_t i) { return static_cast<double>(pattern_word(~mask, i) & 0xFFFFFFu); }

class TriadSession : public CpuSession {
public:
    TriadSession(int src, int dst, std::size_t max_bytes, Stores stores, const MethodOptions& options)
        : CpuSession(max_bytes / 8 * 8, src, options.values.flag("smt")),
          a_(topo_, dst, max_bytes_, BufferOptions{.touch_later = true}),
          b_(topo_, src, max_bytes_, BufferOptions{.touch_later = true}),
          c_(topo_, src, max_bytes_, BufferOptions{.touch_later = true}), stores_(stores) {
        sweep_worker_counts(options.max_workers);
        for (NumaBuffer* buffer : {&a_, &b_, &c_}) first_touch(*buffer);
        write_pattern(max_bytes_, seed());
        note_buffer("a_buffer", a_);
        note_buffer("b_buffer", b_);
        note_buffer("c_buffer", c_);
        context_["stores"] = to_string(stores_);
        context_["scalar"] = kScalar;
        note_byte_convention({"one array's bytes (a); the loop reads b and c and writes a", "Triad", 3});
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        const std::size_t n = bytes / 8;
        const double* a = array(a_);
        const double* b = array(b_);
        const double* c = array(c_);
        const bool parallel = bytes >= kParallelBytes;
        std::vector<std::size_t> firsts(chunk_count(parallel), n);
        for_each_chunk(n, parallel, [&](std::size_t begin, std::size_t end, unsigned chunk) {
            for (std::size_t i = begin; i < end; ++i)
                if (a[i] != b[i] + kScalar * c[i]) {
                    firsts[chunk] = i;
                    return;
                }
        });
        const std::size_t first = *std::min_element(firsts.begin(), firsts.end());
        if (first == n) return {};
        return "a[" + std::to_string(first) + "] of " + std::to_string(n) + " is not b + 3c of this sample";
    }

protected:
    void write_pattern(std::size_t bytes, std::uint64_t seed) override {
        const std::uint64_t mask = pattern_mask(seed);
        double* a = array(a_);
        double* b = array(b_);
        double* c = array(c_);
        for_each_chunk(bytes / 8, bytes >= kParallelBytes, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                b[i] = b_value(mask, i);
                c[i] = c_value(mask, i);
                a[i] = -1.0;  // no b + 3c of non-negative integers is negative
            }
        });
    }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        double* a = array(a_);
        const double* b = array(b_);
        const double* c = array(c_);
        const std::size_t whole = bytes / 8 * 8;
        const auto triad = kernels().triad;
        const Stores stores = stores_;
        return run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            const auto [begin, end] = line_chunk(whole, rank, team);
            if (end > begin) triad(a + begin / 8, b + begin / 8, c + begin / 8, kScalar, (end - begin) / 8, stores);
        });
    }

private:
    static double* array(NumaBuffer& buffer) { return reinterpret_cast<double*>(buffer.data()); }
    NumaBuffer a_, b_, c_;
    Stores stores_;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_triad() {
    return make_stores_numa_pair_method<TriadSession>(
        method_name::kCpuTriad,
        "STREAM Triad a = b + 3c on 8-byte doubles: threads bound to cores of the source node read b and c there "
        "and write a on the destination node (plain or non-temporal stores); size = one array (STREAM: 3x)",
        NumaPairMethod::CpuEnd::Src, SizePolicy{.alignment = 8, .min_bytes = 8});
}

}  // namespace hwcomm
