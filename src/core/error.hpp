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

namespace detail {
// strerror_r is the GNU one (returns the text) or the XSI one (fills buf).
inline std::string strerror_r_text(const char* text, const char*) { return text; }
inline std::string strerror_r_text(int rc, const char* buf) { return rc == 0 ? std::string(buf) : "unknown error"; }
}  // namespace detail

// The C library's text of errno `code` (default: the last failed call's).
// strerror_r: worker threads (thread binding, buffer placement) report
// failures at once, and std::strerror may share one buffer between them.
inline std::string errno_text(int code = errno) {
    char buf[256] = {};
    return detail::strerror_r_text(::strerror_r(code, buf, sizeof buf), buf);
}

inline constexpr int kExitUsage = 2;
// hwcomm run: finished, but some records are errors; stopped before the end
// (the results file is valid and can be resumed). docs/cli.md lists them all.
inline constexpr int kExitRecordErrors = 3;
inline constexpr int kExitInterrupted = 4;

}  // namespace hwcomm
