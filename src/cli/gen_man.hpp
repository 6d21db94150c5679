#pragma once
// Man pages (roff, section 1) from the CLI description: hwcomm.1 and one
// hwcomm-SUBCOMMAND.1 per subcommand.
#include <map>
#include <string>
#include <vector>

#include "cli/cli_walk.hpp"

namespace hwcomm::cli {

// File name ("hwcomm-run.1") -> page text.
std::map<std::string, std::string> man_pages(const std::vector<CommandDoc>& commands, const std::string& version);

}  // namespace hwcomm::cli
