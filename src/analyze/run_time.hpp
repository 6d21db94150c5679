#pragma once
// What a run took against what its plan expected (issue 21, item 2): per
// method and in total, the records' measured wall time (context.elapsed_s)
// beside their estimate (context.estimate_s), and how many records were
// measured in full, confirmed or promoted, and how much of the time lay
// outside the records' points. Reads results files only.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct RunTimeRow {
    std::string method;  // "" for the total
    std::size_t records = 0, full = 0, confirmed = 0, promoted = 0;
    // Confirmations outside their class once and measured again (kept or promoted).
    std::size_t measured_twice = 0;
    std::size_t timed = 0;      // records with both an estimate and a measured time
    double estimate_s = 0, elapsed_s = 0;  // over the timed records
    // Of elapsed_s, the time outside the records' points
    // (seconds_outside_points, over the records whose points say): buffers,
    // binding, worker-count probes, what a plan pays per record whatever its sizes.
    double outside_points_s = 0;
};

// One row per method (in file order), then the total; empty when no record
// carries an estimate (files of builds before plans, imports).
std::vector<RunTimeRow> run_time_rows(const ResultsFile& file);

// Seconds from the run's start (meta.date_utc) to its end
// (meta.run.ended_utc), whole seconds as the timestamps hold them; nullopt
// when either is missing or malformed, the run has not ended, or it was
// resumed (its records then span several invocations).
std::optional<double> run_wall_s(const ResultsFile& file);

// "run time against the plan's estimate" section; "" when there are no rows.
// With `wall_s`, a line sets the invocation's wall time beside the records'.
std::string format_run_time(const std::vector<RunTimeRow>& rows, std::optional<double> wall_s = std::nullopt);

}  // namespace hwcomm::analyze
