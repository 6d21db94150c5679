#pragma once
// What `hwcomm --version` prints: the facts someone needs to tell two
// installed binaries apart (and to file a bug against the right one).
#include <string>

namespace hwcomm::cli {

std::string version_text();

}  // namespace hwcomm::cli
