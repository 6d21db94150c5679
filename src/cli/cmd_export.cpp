// Placeholder: replaced by the real subcommand.
#include "cli/commands.hpp"
#include "core/error.hpp"
namespace hwcomm::cli {
void add_export_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("export", "not built yet");
    sub->callback([&action] { action = [] () -> int { throw UsageError("export: not built yet"); }; });
}
}  // namespace hwcomm::cli
