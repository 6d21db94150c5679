#include "methods/cpu/pointer_chase.hpp"

#include <numeric>
#include <vector>

#include "core/error.hpp"
#include "platform/clock.hpp"

namespace hwcomm {

namespace {

// splitmix64: a fast generator good enough to shuffle.
std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

void PointerChase::lay_out(std::byte* memory, std::size_t working_set, std::uint64_t seed) {
    const std::size_t lines = working_set / kLineBytes;
    if (lines < 2) throw MeasurementError("a pointer chase needs at least 2 cache lines (128 bytes)");
    if (reinterpret_cast<std::uintptr_t>(memory) % kLineBytes != 0)
        throw MeasurementError("the pointer chase's memory is not 64-byte aligned");
    // The visiting order: line 0 first, the others shuffled (Fisher-Yates).
    std::vector<std::uint32_t> order32;
    std::vector<std::uint64_t> order64;
    const bool narrow = lines <= 0xFFFFFFFFull;
    auto fill_and_link = [&](auto& order) {
        using Index = typename std::decay_t<decltype(order)>::value_type;
        order.resize(lines);
        std::iota(order.begin(), order.end(), Index{0});
        std::uint64_t state = seed;
        for (std::size_t i = lines - 1; i > 1; --i) {
            const std::size_t j = 1 + next_random(state) % i;  // in [1, i]
            std::swap(order[i], order[j]);
        }
        auto* line = reinterpret_cast<Line*>(memory);
        for (std::size_t k = 0; k < lines; ++k) {
            Line& l = *reinterpret_cast<Line*>(memory + static_cast<std::size_t>(order[k]) * kLineBytes);
            l.next = reinterpret_cast<const Line*>(memory + static_cast<std::size_t>(order[(k + 1) % lines]) * kLineBytes);
            l.position = k;
        }
        return line;
    };
    const Line* first = narrow ? fill_and_link(order32) : fill_and_link(order64);
    memory_ = memory;
    lines_ = lines;
    current_ = first;
    start_position_ = 0;
    last_steps_ = 0;
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
