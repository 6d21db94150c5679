#pragma once
// Reads an input file named by the user without trusting what sits at the
// path: a named pipe must not block hwcomm forever, a device must not be read
// without end, a directory gets its own message.
#include <cstddef>
#include <string>

namespace hwcomm {

// Reads a regular file of at most max_bytes. Throws UsageError
// "cannot read <what> <path>: <reason>" for a missing or unreadable file, an
// empty path, a directory, a pipe, socket or device, or a file too large.
std::string read_regular_input_file(const std::string& path, const std::string& what, std::size_t max_bytes);

}  // namespace hwcomm
