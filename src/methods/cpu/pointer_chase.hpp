#pragma once
// A chain of dependent loads over the cache lines of a working set, in one
// random cyclic order (every line once per lap, each next line unknown until
// the current one arrives, so neither the prefetchers nor out-of-order
// execution can overlap two loads). Each line also holds its position in the
// cycle, so a chase of k steps can be checked in O(1): it must end k
// positions after where it started.
#include <cstddef>
#include <cstdint>
#include <string>

namespace hwcomm {

class PointerChase {
public:
    static constexpr std::size_t kLineBytes = 64;
    // The bounds of a sample's calibrated chase length, in links.
    static constexpr std::uint64_t kMinSteps = 4096, kMaxSteps = std::uint64_t{1} << 22;
    // The links a sample follows to last about `sample_seconds` when one link
    // takes `seconds_per_link` (from a calibration chase), within the bounds.
    static std::uint64_t calibrated_steps(double seconds_per_link, double sample_seconds);

    // Chains the lines of memory[0, working_set) (rounded down to whole
    // lines, at least 2) in the random cycle of `seed`; the chase starts at
    // position 0. `memory` must be 64-byte aligned and outlive the chase.
    void lay_out(std::byte* memory, std::size_t working_set, std::uint64_t seed);
    // Reads every line once in address order on the calling thread: brings a
    // working set that fits the caches into them at streaming speed (a lap of
    // the chase does it one latency at a time: 0.8 s for 256 MiB at 200 ns).
    void touch() const;
    // Follows `steps` links from where the last chase stopped; returns seconds.
    double run(std::uint64_t steps);
    // "" when the last run ended where `steps` links from its start must; else what is wrong.
    std::string check() const;
    std::size_t lines() const { return lines_; }
    std::size_t working_set() const { return lines_ * kLineBytes; }

private:
    struct Line {
        const Line* next;
        std::uint64_t position;  // in the cycle, 0 .. lines-1
    };
    std::byte* memory_ = nullptr;
    std::size_t lines_ = 0;
    const Line* current_ = nullptr;
    std::uint64_t start_position_ = 0;
    std::uint64_t last_steps_ = 0;
};

}  // namespace hwcomm
