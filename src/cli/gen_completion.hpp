#pragma once
// Shell completion scripts from the CLI description: subcommands, options,
// option values (choices, files), method names (this build's registry, fixed
// at generation time) and endpoint ids (asked of `hwcomm __generate endpoints`
// when completed: they depend on the machine).
#include <string>
#include <vector>

#include "cli/cli_walk.hpp"

namespace hwcomm::cli {

std::string bash_completion(const std::vector<CommandDoc>& commands, const std::vector<std::string>& methods);
std::string zsh_completion(const std::vector<CommandDoc>& commands, const std::vector<std::string>& methods);

}  // namespace hwcomm::cli
