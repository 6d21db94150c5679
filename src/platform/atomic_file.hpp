#pragma once
// Writes an output file without ever leaving it half-written and without
// replacing whatever else sits at the path (issue 16):
// - a regular file (or nothing) is replaced atomically: an anonymous O_TMPFILE
//   in the same directory, fsynced, linked under a temporary name of ours and
//   renamed over the target, so a kill leaves at most that name, which the
//   next save removes; the new file honours the umask;
// - a character device or named pipe (/dev/null, a terminal, /dev/stdout) is
//   written in place, never replaced;
// - a directory, socket or block device is refused, and so is a symbolic link
//   that leads out of the output's directory (the rename would not follow it);
//   a link to a file in the same directory replaces that file.
// Every refusal and failure is a UsageError naming the path; the existing file
// is then untouched.
#include <string>

namespace hwcomm {

enum class OutputKind { Missing, RegularFile, InPlace };

struct OutputTarget {
    std::string path;  // what is replaced (a same-directory link resolved) or written in place
    OutputKind kind = OutputKind::Missing;
};

// Where `path` would be written; throws UsageError for what may not be written.
OutputTarget inspect_output(const std::string& path);

void write_file_atomically(const std::string& path, const std::string& contents);

// What every command checks before any work: the output may be written
// (inspect_output) and, when it is an existing regular file, `force` was
// given. Throws UsageError "<path> exists; use --force to overwrite it".
void check_new_output(const std::string& path, bool force);

// True when a file could be created in path's directory (probes with an
// anonymous temporary file; never touches path itself).
bool directory_writable_for(const std::string& path, std::string* why = nullptr);

}  // namespace hwcomm
