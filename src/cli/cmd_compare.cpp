// hwcomm compare A.json B.json [--threshold PCT]: placeholder until compare lands.
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"

namespace hwcomm::cli {

void add_compare_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("compare", "Changes between two results files");
    auto files = std::make_shared<std::vector<std::string>>();
    sub->add_option("files", *files, "two results files")->required()->expected(2);
    sub->callback([&action, files] { action = [] () -> int { throw UsageError("compare: not implemented yet"); }; });
}

}  // namespace hwcomm::cli
