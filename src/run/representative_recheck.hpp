#pragma once
// A representative its own class's confirmations put outside the class
// (three or more links at a size: the class's spread, run/confirmation.hpp)
// is measured once more at the confirmations' sizes, right after them. Its
// full sweep ran earlier, and the host side moves with time: on
// nvidia-h200-x4 at 6da8c40 the pageable host-to-device copy into gpu0, swept
// at the run's start while the host read probe read 147 GB/s, sat 47% above
// its three siblings at 64 MiB (all three 6.8-6.9 GB/s, measured 100 s later
// at 97-127 GB/s), and analyze called the four links unlike. Measured again
// beside them, the representative says whether the difference was the link
// (outside again, on the same side) or the time it ran (within). The record
// keeps its sweep; context.recheck keeps the second measurement, which the
// class comparisons of analyze use at those sizes. Pure: records in, JSON out.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "run/confirmation.hpp"

namespace hwcomm {

// The sizes where the class's judgement put the representative outside: per
// (size, axes) {bytes, axes, first_gbps, class_median_gbps, side}. Empty: no
// recheck.
nlohmann::json representative_outside(const std::vector<ConfirmationVerdict>& verdicts);

// context.recheck of the representative from its second measurement `again`
// at the confirmations' sizes and the class's kept confirmations `members`:
// {reason, verdict: "within" | "outside again" | "failed", compared: per size
// {bytes, axes, first_gbps, again_gbps, class_median_gbps, outside, side?},
// error?}. "outside again": at a size of `first_outside` the second
// measurement lies outside the class on the same side.
nlohmann::json judge_recheck(const nlohmann::json& first_outside, const Record& again,
                             const std::vector<const Record*>& members, double tolerance = kConfirmationTolerance);

// The line a run prints for it.
std::string recheck_line(const std::string& key, const nlohmann::json& recheck);

}  // namespace hwcomm
