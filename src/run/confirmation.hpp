#pragma once
// Confirmations (issue 21, item 4): a class member other than its
// representative is measured at a few sizes of the representative's curve
// (small for latency, one on the ramp, one on the plateau), and promoted to
// a full sweep when one of them lies outside its class's spread.
//
// With three or more links of the class measured at a size (the
// representative and at least two confirmations), the spread is the class's
// own: the median of their bandwidths and a robust scatter (median absolute
// deviation of log bandwidth over 0.6745), and a link is outside when its
// modified z-score exceeds 3.5 (Iglewicz and Hoaglin) and it is more than
// `tolerance` from that median. On nvidia-h200-x4 at 890987b the
// representative-only rule promoted 71 of 240 confirmations, most by noise
// that moved between runs: pageable and unified-memory copies scatter 10-40%
// from link to link at every size, staged peer copies 13-19 us at 1 B on any
// pair; a representative itself off its siblings promoted all of them.
//
// With fewer (two GPUs: one pair per direction), the representative's spread:
// more than `tolerance` away, or outside its 95% confidence interval where
// that is wider. At latency-bound sizes either band also holds
// `kTimerResolutionS` either side of the centre's time: a difference the
// clock cannot resolve is no evidence of an unlike link (on nvidia-h200-x2 20
// of 40 confirmations were promoted by 0.1-0.5 us on ~2 us at 1 B-4 KiB).
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
// The class's own spread needs this many links measured at a size.
inline constexpr std::size_t kClassSpreadMinLinks = 3;

// The sizes to confirm from the representative's ok points: `count` 3 gives
// the smallest, the ramp size (bandwidth nearest half the plateau's) and the
// plateau size (its first size >= 64 MiB, else its largest); 1 gives the
// plateau size. Empty when the representative has no ok point.
std::vector<std::uint64_t> confirmation_sizes(const Record& representative, std::size_t count);

struct ConfirmationVerdict {
    bool promote = false;
    bool failed = false;   // a size failed: promoted without comparing
    std::string reason;    // why promoted: the first size outside the spread, a failed size
    nlohmann::json compared = nlohmann::json::array();  // per size: member, centre, band, class
    nlohmann::json first_measurement;  // null, or {reason, compared} of the first of two measurements
};

// Against the representative alone.
ConfirmationVerdict judge_confirmation(const Record& member, const Record& representative,
                                       double tolerance = kConfirmationTolerance);

// Each of `members` against its class: the representative, `members` and
// `siblings` (confirmations judged before, e.g. by an earlier run of a
// resumed file) at the same sizes. One verdict per member, in order.
std::vector<ConfirmationVerdict> judge_class(const std::vector<const Record*>& members,
                                             const std::vector<const Record*>& siblings, const Record& representative,
                                             double tolerance = kConfirmationTolerance);

// The confirmations `results` keeps for the representative `representative_key`.
std::vector<const Record*> kept_confirmations(const ResultsFile& results, const std::string& representative_key);

// A member measured twice is unlike its class only when the second
// measurement is outside at a size where the first was, on the same side (or
// a size failed). Outside both times but never so (nvidia-h200-x2 at 730d24c:
// um-demand gpu1->numa0 at 64 MiB -24.6%, then +6.9% from gpu0->numa0) is the
// path's run-to-run noise, not a different link.
bool outside_again(const ConfirmationVerdict& first, const ConfirmationVerdict& second);

}  // namespace hwcomm
