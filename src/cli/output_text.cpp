#include "cli/output_text.hpp"

#include <exception>
#include <iostream>

#include "core/error.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm::cli {

void print_or_write(const std::string& path, const std::string& text, const std::string& command_prefix) {
    if (path.empty()) {
        std::cout << text << std::flush;
        return;
    }
    try {
        write_file_atomically(path, text);
    } catch (const std::exception& e) {
        throw UsageError(command_prefix + e.what());
    }
}

}  // namespace hwcomm::cli
