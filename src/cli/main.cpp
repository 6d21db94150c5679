// hwcomm: map and measure every data path of a compute node.
#include <cstdio>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/build_info.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/utf8.hpp"

int main(int argc, char** argv) {
    using namespace hwcomm;
    CLI::App app{"maps and measures every data path of a heterogeneous compute node", "hwcomm"};
    app.set_version_flag("--version", std::function<std::string()>(cli::version_text), "version, revision, compiler, CUDA and hwloc versions");
    app.require_subcommand(1);
    cli::Action action;
    cli::add_topo_command(app, action);
    cli::add_list_command(app, action);
    cli::add_run_command(app, action);
    cli::add_export_command(app, action);
    cli::add_summary_command(app, action);
    cli::add_report_command(app, action);
    cli::add_import_command(app, action);
    cli::add_analyze_command(app, action);
    cli::add_compare_command(app, action);
    cli::add_gpumem_command(app, action);
    cli::add_generate_command(app, action);
    cli::add_model_command(app, action);
    cli::add_predict_command(app, action);
    cli::add_help_footers(app);  // last: it reads every command added above
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line, exit 2, whatever CLI11 would have printed.
        std::cerr << "hwcomm: error: " << e.what() << " (see hwcomm --help)\n";
        return kExitUsage;
    }
    try {
        return action ? action() : 0;
    } catch (const UsageError& e) {
        // A path in the message may hold any bytes; the terminal gets UTF-8.
        std::cerr << "hwcomm: error: " << to_valid_utf8(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "hwcomm: internal error: " << to_valid_utf8(e.what()) << "\n";
        return 1;
    }
}
