#pragma once
// Progress on stderr for a terminal: "[12/124 10%] cpu-read numa0->numa1 64 MiB  ETA 1m05s".
// Silent when disabled (stderr not a terminal), so logs and pipes stay clean.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/results.hpp"

namespace hwcomm {

// The log line of a finished record (index of total), printed whatever stderr
// is: the printers make it (report/text/record_line.hpp), the run prints it.
using RecordLine = std::function<std::string(const Record& record, std::size_t index, std::size_t total)>;

// Seconds left: with the plan's estimates, what is left of them scaled by how
// the records measured so far took against theirs (a host slower than the
// cost table's, unforeseen promotions); without (`planned_s` 0), the units
// left at the mean time per unit so far. Negative: not known yet.
double eta_seconds(double elapsed_s, double planned_s, double planned_done_s, std::size_t total_units,
                   std::size_t done_units);

class Progress {
public:
    // `planned_s`: the plan's estimate of every step (0: none).
    Progress(bool enabled, std::size_t total_units, double planned_s = 0);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // About to measure one unit (one size of one record).
    void start(const std::string& method, const std::string& src, const std::string& dst, std::uint64_t bytes);
    void finish_unit();
    // Units a record will no longer measure (it failed to prepare).
    void skip_units(std::size_t n);
    // A step of the plan is behind the run (measured, judged or skipped): the
    // plan had given it `planned_s`.
    void step_done(double planned_s);

private:
    bool enabled_;
    std::size_t total_, done_ = 0;
    double t0_;
    double planned_s_, planned_done_s_ = 0;
};

}  // namespace hwcomm
