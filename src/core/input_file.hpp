#pragma once
// The one way hwcomm reads a file the user named (results files, Comm|Scope
// JSON, topology exports, NVML recordings, targets, models): without trusting
// what sits at the path. A named pipe must not block hwcomm forever, a device
// must not be read without end, a directory gets its own message, and neither
// a huge file nor a small gzip file that inflates to gigabytes is read whole.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"

namespace hwcomm {

// What the guarded input path refuses: the whole one-line message, and the
// reason alone for callers that list files with what is wrong with each.
class InputError : public UsageError {
public:
    InputError(const std::string& message, std::string reason) : UsageError(message), reason_(std::move(reason)) {}
    const std::string& reason() const { return reason_; }

private:
    std::string reason_;
};

// Larger than any file hwcomm reads (a full 2x H200 results file is tens of
// MB); applies on disk and, for gzip-compressed input, after inflation.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

enum class Gzip {
    Inflate,  // content that starts with the gzip magic bytes is inflated
    AsIs,     // bytes as they are on disk
};

// Reads a regular file of at most max_bytes (inflated, too, with
// Gzip::Inflate; and past 16 MiB at most 100 times the compressed size, where
// hwcomm's own files compress about 10:1). Throws InputError "cannot read
// <what> <path>: <reason>" for a missing or unreadable file, an empty path, a
// directory, a pipe, socket or device, a file too large, or gzip content that
// is corrupt or inflates past those limits.
std::string read_regular_input_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                                    Gzip gzip = Gzip::Inflate);

// True when `bytes` start with the gzip magic (0x1f 0x8b).
bool has_gzip_magic(std::string_view bytes);

// True when `path` is a regular file that starts with the gzip magic; false
// for anything else (a pipe or device is not opened for reading).
bool is_gzip_file(const std::string& path);

}  // namespace hwcomm
