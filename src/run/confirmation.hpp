#pragma once
// Confirmations (issue 21, item 4): a class member other than its
// representative is measured at a few sizes of the representative's curve
// (small for latency, one on the ramp, one on the plateau), and promoted to
// a full sweep when one of them lies outside the representative's spread:
// more than `tolerance` away, or outside the representative's 95% confidence
// interval where that is wider. At latency-bound sizes the band also holds
// `kTimerResolutionS` either side of the representative's time: a difference
// the clock cannot resolve is no evidence of an unlike link (on nvidia-h200-x2
// 20 of 40 confirmations were promoted by 0.1-0.5 us on ~2 us at 1 B-4 KiB).
// Pure: records in, sizes and verdicts out.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"

namespace hwcomm {

inline constexpr double kConfirmationTolerance = 0.05;
// CUDA events resolve about 0.5 us (CUDA programming guide, cudaEventElapsedTime).
inline constexpr double kTimerResolutionS = 0.5e-6;
inline constexpr std::uint64_t kConfirmationPlateauBytes = std::uint64_t{64} << 20;  // analyze's window starts here

// The sizes to confirm from the representative's ok points: `count` 3 gives
// the smallest, the ramp size (bandwidth nearest half the plateau's) and the
// plateau size (its first size >= 64 MiB, else its largest); 1 gives the
// plateau size. Empty when the representative has no ok point.
std::vector<std::uint64_t> confirmation_sizes(const Record& representative, std::size_t count);

struct ConfirmationVerdict {
    bool promote = false;
    std::string reason;    // why promoted: the first size outside the spread, a failed size
    nlohmann::json compared = nlohmann::json::array();  // per size: member, representative, band
};

ConfirmationVerdict judge_confirmation(const Record& member, const Record& representative,
                                       double tolerance = kConfirmationTolerance);

}  // namespace hwcomm
