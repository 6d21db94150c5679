#pragma once
// A class measured twice (the "second pass"). After a class's judgement its
// links are known by one short measurement each, taken one after another:
// where that path moves with the host's state (pageable copies stage through
// host memory, unified memory faults through the host's page tables), the
// links of one class spread 10-40% at their plateau size without one lying
// outside the class's own scatter, and analyze could not tell whether a link
// or the time it ran made the difference. On nvidia-h200-x4 at 49947bf the
// four pageable device-to-host links read 8.02-9.59 GB/s (+20%) at 64 MiB,
// once each, and analyze called identical links unlike.
//
// So when the kept links of a class (its representative and the members kept
// in this judgement) spread beyond the tolerance at their smallest common
// size in analyze's window (>= 64 MiB: the confirmations' plateau size), each
// is measured once more there, in the same order, right after the judgement. The record keeps its measurement
// and context.second_pass keeps the second one; analyze compares the class
// by bytes over the mean time of the two, and how far one link moved between
// them is the yardstick its identical-link verdict holds the spread to.
// Quiet classes (pinned copies, NVLink: within 0.5%) are never measured twice.
// Pure: records in, sizes, JSON and text out.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "run/confirmation.hpp"

namespace hwcomm {

struct SecondPass {
    std::uint64_t bytes = 0;
    std::vector<double> first_gbps;  // per link, in order: what the class judged it by there
    double spread = 0;               // the fastest / the slowest - 1
    std::string reason;              // "its 4 links spread +19.6% at 64 MiB (8.02-9.59 GB/s)"
};

// A link's bandwidth at `bytes` as its class sees it: a representative's
// second measurement beside its class (context.recheck) where it has one,
// else its own point there (the best over other axes); 0 when none.
double class_view_gbps(const Record& link, std::uint64_t bytes);

// The second pass `links` (the representative first) need, or nullopt: fewer
// than two links, no common size >= kConfirmationPlateauBytes, or a spread
// within `tolerance` there.
std::optional<SecondPass> plan_second_pass(const std::vector<const Record*>& links,
                                           double tolerance = kConfirmationTolerance);

// context.second_pass of one link: {reason, bytes, first_gbps, again_gbps,
// position: [its place, links], elapsed_s}; a failed measurement keeps
// {reason, bytes, first_gbps, error, ...} instead of again_gbps.
nlohmann::json second_pass_entry(const SecondPass& pass, std::size_t position, const Record& again, double elapsed_s);

// The run's log line once the class was measured twice: the spread before,
// and that of the means of the two measurements after.
std::string second_pass_line(const std::string& representative_key, const SecondPass& pass,
                             const std::vector<nlohmann::json>& entries);

}  // namespace hwcomm
