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

class Progress {
public:
    Progress(bool enabled, std::size_t total_units);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // About to measure one unit (one size of one record).
    void start(const std::string& method, const std::string& src, const std::string& dst, std::uint64_t bytes);
    void finish_unit();
    // Units a record will no longer measure (it failed to prepare).
    void skip_units(std::size_t n);

private:
    bool enabled_;
    std::size_t total_, done_ = 0;
    double t0_;
};

}  // namespace hwcomm
