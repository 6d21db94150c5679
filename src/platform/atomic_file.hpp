#pragma once
// Replaces a file atomically: writes a temporary file in the same directory,
// fsyncs it, renames it over the target. On any failure the existing file is
// untouched and the temporary is removed.
#include <string>

namespace hwcomm {

// Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& contents);

// True when a file could be created in path's directory (probes with a
// temporary file, removes it; never touches path itself).
bool directory_writable_for(const std::string& path, std::string* why = nullptr);

}  // namespace hwcomm
