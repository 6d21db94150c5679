// Placeholder: replaced by the real subcommand.
#include "cli/commands.hpp"
#include "core/error.hpp"
namespace hwcomm::cli {
void add_topo_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("topo", "not built yet");
    sub->callback([&action] { action = [] () -> int { throw UsageError("topo: not built yet"); }; });
}
}  // namespace hwcomm::cli
