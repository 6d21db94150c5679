#include "methods/cpu/pointer_chase.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>

#include "core/error.hpp"
#include "methods/cpu/cycle_order.hpp"
#include "platform/clock.hpp"
#include "platform/parallel_chunks.hpp"

namespace hwcomm {

namespace {

// Below this many lines one thread lays the chain out faster than a team starts.
constexpr std::size_t kParallelLines = std::size_t{1} << 16;

// One whole line: its link, its position, zeros. On x86-64 with streaming
// stores: the laying threads leave no line of the working set in their
// caches, dirty, for the chasing core to fetch from another core (on the
// one-H100 host a parallel layout with plain stores read 8 MiB at 200-210 ns
// a load against 135 after the one thread's shuffle).
void write_line(std::byte* line, const void* next, std::uint64_t position) {
#if defined(__x86_64__)
    const __m128i head = _mm_set_epi64x(static_cast<long long>(position),
                                        static_cast<long long>(reinterpret_cast<std::uintptr_t>(next)));
    const __m128i zero = _mm_setzero_si128();
    auto* v = reinterpret_cast<__m128i*>(line);
    _mm_stream_si128(v, head);
    _mm_stream_si128(v + 1, zero);
    _mm_stream_si128(v + 2, zero);
    _mm_stream_si128(v + 3, zero);
#else
    auto* words = reinterpret_cast<std::uint64_t*>(line);
    words[0] = reinterpret_cast<std::uintptr_t>(next);
    words[1] = position;
#endif
}

}  // namespace

void PointerChase::lay_out(std::byte* memory, std::size_t working_set, std::uint64_t seed) {
    const std::size_t lines = working_set / kLineBytes;
    if (lines < 2) throw MeasurementError("a pointer chase needs at least 2 cache lines (128 bytes)");
    if (reinterpret_cast<std::uintptr_t>(memory) % kLineBytes != 0)
        throw MeasurementError("the pointer chase's memory is not 64-byte aligned");
    // Position k of the cycle is line order(k); each chunk of positions links
    // its own lines, and order being a bijection, no two chunks write one line.
    const CycleOrder order(lines, seed);
    const auto line_at = [memory](std::uint64_t index) {
        return reinterpret_cast<Line*>(memory + static_cast<std::size_t>(index) * kLineBytes);
    };
    for_each_chunk(lines, lines >= kParallelLines, [&](std::size_t begin, std::size_t end) {
        if (begin == end) return;
        std::uint64_t here = order(begin);
        for (std::size_t k = begin; k < end; ++k) {
            const std::uint64_t next = order(k + 1 == lines ? 0 : k + 1);
            write_line(reinterpret_cast<std::byte*>(line_at(here)), line_at(next), k);
            here = next;
        }
#if defined(__x86_64__)
        _mm_sfence();  // the streamed lines are globally visible before the team joins
#endif
    });
    memory_ = memory;
    lines_ = lines;
    current_ = line_at(order(0));
    start_position_ = 0;
    last_steps_ = 0;
}

void PointerChase::touch() const {
    if (!memory_) throw MeasurementError("pointer chase touched before lay_out");
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < lines_; ++i) sum += reinterpret_cast<const Line*>(memory_ + i * kLineBytes)->position;
    asm volatile("" : : "r"(sum));  // the loads are the point: keep them
}

std::uint64_t PointerChase::calibrated_steps(double seconds_per_link, double sample_seconds) {
    const double links = sample_seconds / std::max(seconds_per_link, 1e-10);
    return static_cast<std::uint64_t>(
        std::clamp(links, static_cast<double>(kMinSteps), static_cast<double>(kMaxSteps)));
}

double PointerChase::run(std::uint64_t steps) {
    if (!current_) throw MeasurementError("pointer chase run before lay_out");
    const Line* p = current_;
    start_position_ = p->position;
    const double t0 = steady_seconds();
    for (std::uint64_t i = 0; i < steps; ++i) p = p->next;
    asm volatile("" : "+r"(p));  // the loads are the result: keep them
    const double t1 = steady_seconds();
    current_ = p;
    last_steps_ = steps;
    return t1 - t0;
}

std::string PointerChase::check() const {
    if (!current_) return "the chase never ran";
    const std::uint64_t expected = (start_position_ + last_steps_) % lines_;
    if (current_->position == expected) return {};
    return "the chase ended at cycle position " + std::to_string(current_->position) + ", " +
           std::to_string(last_steps_) + " links after " + std::to_string(start_position_) + " is " +
           std::to_string(expected);
}

}  // namespace hwcomm
