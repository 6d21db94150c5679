#pragma once
// Where a command's text goes: standard output without --output, else the
// file, written whole or not at all (platform/atomic_file.hpp).
#include <string>

namespace hwcomm::cli {

// `path` empty: print `text`. A file that cannot be written is a usage error
// (one line, exit 2), its message after `command_prefix` ("analyze: ").
void print_or_write(const std::string& path, const std::string& text, const std::string& command_prefix = "");

}  // namespace hwcomm::cli
