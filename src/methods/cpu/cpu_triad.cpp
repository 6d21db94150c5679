// cpu-triad: STREAM's Triad a = b + q*c. Workers bound to cores of the source
// node read b and c on the source node and write a on the destination node
// (plain or non-temporal stores), each worker its own contiguous chunk. The
// size is one array's bytes (8-byte doubles); STREAM counts three arrays.
// b and c hold small integers and q is 2..8, so every a[i] is exact whether
// the loop fuses the multiply-add or not, and the check compares exactly.
// b and c are written once and a poisoned once; every sample then changes q,
// and c is never 0, so an element the timed batch did not write still holds
// b + q'*c of an earlier q and fails the check: between samples nothing is
// written at all.
#include <cmath>
#include <memory>

#include "catalog/method_names.hpp"
#include "methods/cpu/bound_parallel.hpp"
#include "methods/cpu/cpu_methods.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/cpu/pattern.hpp"
#include "platform/parallel_chunks.hpp"

namespace hwcomm {

namespace {

// The sample's q: never the previous sample's.
double scalar_of(std::uint64_t seed) { return static_cast<double>(2 + seed % 7); }

// Integers below 2^24: b + 8c stays exact in a double.
double b_value(std::uint64_t mask, std::size_t i) { return static_cast<double>(pattern_word(mask, i) >> 40); }
double c_value(std::uint64_t mask, std::size_t i) { return static_cast<double>((pattern_word(~mask, i) & 0xFFFFFFu) | 1u); }

class TriadSession : public CpuSession {
public:
    TriadSession(int src, int dst, std::size_t max_bytes, Stores stores, const MethodOptions& options)
        : CpuSession(max_bytes / 8 * 8, src, options.values.flag("smt")),
          a_(topo_, dst, max_bytes_, BufferOptions{.touch_later = true}),
          b_(topo_, src, max_bytes_, BufferOptions{.touch_later = true}),
          c_(topo_, src, max_bytes_, BufferOptions{.touch_later = true}), stores_(stores) {
        sweep_worker_counts(options.max_workers);
        for (NumaBuffer* buffer : {&a_, &b_, &c_}) first_touch(*buffer);
        fill_sources();
        write_pattern(max_bytes_, seed());
        poison_a();
        note_buffer("a_buffer", a_);
        note_buffer("b_buffer", b_);
        note_buffer("c_buffer", c_);
        context_["stores"] = to_string(stores_);
        context_["scalar"] = "2 + sample seed mod 7 (changes every sample)";
        note_byte_convention({"one array's bytes (a); the loop reads b and c and writes a", "Triad", 3});
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        const std::size_t n = bytes / 8;
        const double* a = array(a_);
        const double* b = array(b_);
        const double* c = array(c_);
        const std::size_t first = first_failing(
            n, bytes >= kParallelFillBytes, [&](std::size_t i) { return a[i] != b[i] + scalar_ * c[i]; }, untimed_team());
        if (first == n) return {};
        return "a[" + std::to_string(first) + "] of " + std::to_string(n) + " is not b + q*c of this sample";
    }

protected:
    void write_pattern(std::size_t, std::uint64_t seed) override { scalar_ = scalar_of(seed); }
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override {
        const unsigned workers = static_cast<unsigned>(std::stoul(variant));
        double* a = array(a_);
        const double* b = array(b_);
        const double* c = array(c_);
        const std::size_t whole = bytes / 8 * 8;
        const auto triad = kernels().triad;
        const Stores stores = stores_;
        const double q = scalar_;
        return run_workers(workers, reps, [&](unsigned rank, unsigned team) {
            const auto [begin, end] = line_chunk(whole, rank, team);
            if (end > begin) triad(a + begin / 8, b + begin / 8, c + begin / 8, q, (end - begin) / 8, stores);
        });
    }

private:
    void poison_a() {
        double* a = array(a_);
        for_each_chunk(max_bytes_ / 8, max_bytes_ >= kParallelFillBytes, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) a[i] = -1.0;  // no b + q*c of non-negative integers is negative
        }, untimed_team());
    }
    void fill_sources() {
        const std::uint64_t mask = pattern_mask(0x7121AD);
        double* b = array(b_);
        double* c = array(c_);
        for_each_chunk(max_bytes_ / 8, max_bytes_ >= kParallelFillBytes, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                b[i] = b_value(mask, i);
                c[i] = c_value(mask, i);
            }
        }, untimed_team());
    }
    static double* array(NumaBuffer& buffer) { return reinterpret_cast<double*>(buffer.data()); }
    NumaBuffer a_, b_, c_;
    Stores stores_;
    double scalar_ = 3.0;
};

}  // namespace

std::unique_ptr<Characterizer> make_cpu_triad() {
    return make_stores_numa_pair_method<TriadSession>(
        method_name::kCpuTriad,
        "STREAM Triad a = b + q*c on 8-byte doubles: threads bound to cores of the source node read b and c there "
        "and write a on the destination node (plain or non-temporal stores); size = one array (STREAM: 3x)",
        NumaPairMethod::CpuEnd::Src, SizePolicy{.alignment = 8, .min_bytes = 8});
}

}  // namespace hwcomm
