#pragma once
// The CLI as data, read from the CLI11 App the parser uses, so the man pages
// and shell completions are generated from the one set of option definitions
// (nothing hand-written to drift). Hidden options and subcommands (empty
// group) are left out.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hwcomm::cli {

struct OptionDoc {
    std::vector<std::string> names;  // "-o", "--output"; empty for a positional
    std::string positional_name;     // "files" for a positional
    std::string value_type;          // "TEXT", "INT", ...; empty for a flag
    std::vector<std::string> choices;  // from an IsMember validator: {csv,jsonl}
    std::string description;
    std::string group;               // "Options", "Method options", ...
    bool required = false;
    bool repeatable = false;
    bool takes_value() const { return !value_type.empty(); }
};

struct CommandDoc {
    std::string name;         // "hwcomm" for the top level, else the subcommand
    std::string description;
    std::string footer;       // example and exit codes (help_footers.cpp)
    std::vector<OptionDoc> options;
};

// [0] is the top level; then each visible subcommand in registration order.
std::vector<CommandDoc> describe_cli(const CLI::App& app);

}  // namespace hwcomm::cli
