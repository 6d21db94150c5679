#pragma once
// User-facing errors: everything that should end the program with a one-line
// message and exit code 2 (bad file, bad option, missing device) is a UsageError.
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace hwcomm {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A failure of one measurement (a CUDA error, a failed verification). The run
// records it on the record and goes on.
class MeasurementError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What this machine lacks for one record (no huge pages, a GPU without the
// bulk-copy unit): the record is "skipped" with the reason, not an error, and
// the run goes on.
class Unavailable : public MeasurementError {
public:
    using MeasurementError::MeasurementError;
};

// The C library's text of the last failed call's errno.
inline std::string errno_text() { return std::strerror(errno); }

inline constexpr int kExitUsage = 2;
// hwcomm run: finished, but some records are errors; stopped before the end
// (the results file is valid and can be resumed). docs/cli.md lists them all.
inline constexpr int kExitRecordErrors = 3;
inline constexpr int kExitInterrupted = 4;

}  // namespace hwcomm
