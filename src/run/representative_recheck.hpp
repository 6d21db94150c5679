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

// Two links of a class at a size (two GPUs: one host link each way), the
// class's spread cannot judge: a member is compared with the
// representative's sweep alone, which ran minutes before it. On
// nvidia-h200-x2 at 609bce4 the pageable copies into and out of gpu1, 100 s
// after gpu0's sweep, read 34% and 25% below it and were promoted; run alone
// in alternating order, in one process, neither GPU was the faster
// (scripts/bench/pageable_probe.cu, docs/benchmarks.md). So a member outside
// the sweep twice is judged once more beside the representative measured
// again right after it.

// True when no size of `verdict` was judged by its class's spread (fewer than
// kClassSpreadMinLinks links there): the representative was the only reference.
bool judged_by_representative_alone(const ConfirmationVerdict& verdict);

// context.recheck of a representative measured again (`again`) because its
// class's other link lay outside its sweep twice (`second`: the member's
// second measurement against the sweep; `beside`: the same against `again`):
// {reason, trigger: "pair", verdict: "within" | "outside again" | "failed",
// compared: per size {bytes, axes, first_gbps (the sweep, where the member
// lay outside it), again_gbps, other_gbps, outside, side?: the
// representative's, "above" or "below" the other link},
// error?}. "outside again": beside the second measurement the member lies
// outside at a size where it did before, on the same side (outside_again).
nlohmann::json judge_pair_recheck(const ConfirmationVerdict& second, const Record& again,
                                  const ConfirmationVerdict& beside);

// The line a run prints for it (either trigger).
std::string recheck_line(const std::string& key, const nlohmann::json& recheck);

}  // namespace hwcomm
