#pragma once
// Each subcommand lives in its own cmd_*.cpp. add_*_command registers the
// subcommand's options on the app and stores, in `action`, what to run once
// parsing succeeded. Actions return the exit code and throw UsageError for bad
// input (main prints one line and exits 2).
#include <functional>

#include <CLI/CLI.hpp>

#include "methods/characterizer.hpp"

namespace hwcomm::cli {

using Action = std::function<int()>;

void add_topo_command(CLI::App& app, Action& action);
void add_list_command(CLI::App& app, Action& action);
void add_run_command(CLI::App& app, Action& action);
void add_export_command(CLI::App& app, Action& action);
void add_summary_command(CLI::App& app, Action& action);
void add_report_command(CLI::App& app, Action& action);
void add_import_command(CLI::App& app, Action& action);
void add_analyze_command(CLI::App& app, Action& action);
void add_compare_command(CLI::App& app, Action& action);
void add_gpumem_command(CLI::App& app, Action& action);  // cmd_gpumem.cpp
// Hidden: man pages and completions from `app` itself (cmd_generate.cpp).
void add_generate_command(CLI::App& app, Action& action);
// Example and exit codes at the end of each command's --help (help_footers.cpp).
void add_help_footers(CLI::App& app);
void add_model_command(CLI::App& app, Action& action);
void add_predict_command(CLI::App& app, Action& action);

// Every method this build has: CPU ones always, CUDA ones when built with CUDA.
Registry build_registry();

}  // namespace hwcomm::cli
