// hwcomm gpumem: a short way to run only the GPU memory microbenchmarks
// (docs/gpumem.md). It is `hwcomm run --filter 'method=gpumem-*'` with every
// other argument passed on; with --quick it keeps 1 GiB in the sweep (the
// fixed-footprint methods measure at 64 MiB and 1 GiB, which --quick's
// 64 MiB limit would drop) unless --max-size is given.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/error.hpp"

namespace hwcomm::cli {

namespace {

bool given(const std::vector<std::string>& args, const std::string& option) {
    return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
        return a == option || a.rfind(option + "=", 0) == 0;
    });
}

int gpumem_command(const std::vector<std::string>& passed) {
    if (given(passed, "--ncu"))
        throw UsageError("--ncu is not implemented: profile the stride method under Nsight Compute yourself: "
                         "ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum hwcomm gpumem "
                         "--filter method=gpumem-stride ...");
    std::vector<std::string> args{"run", "--filter", "method=gpumem-*"};
    args.insert(args.end(), passed.begin(), passed.end());
    if (given(passed, "--quick") && !given(passed, "--max-size")) {
        args.push_back("--max-size");
        args.push_back("1G");
    }
    CLI::App app{"hwcomm"};
    app.require_subcommand(1);
    Action run;
    add_run_command(app, run);
    std::reverse(args.begin(), args.end());  // CLI11 parses a vector from its back
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        throw UsageError(std::string("gpumem: ") + e.what());
    }
    // After parsing, so an unknown option is named first whatever the build.
    const Registry registry = build_registry();
    if (std::none_of(registry.all().begin(), registry.all().end(),
                     [](const auto& m) { return m->name().rfind("gpumem-", 0) == 0; }))
        throw UsageError("gpumem: this build has no CUDA methods (configured without CUDA)");
    return run ? run() : 0;
}

}  // namespace

void add_gpumem_command(CLI::App& app, Action& action) {
    auto passed = std::make_shared<std::vector<std::string>>();
    auto* sub = app.add_subcommand(
        "gpumem",
        "GPU memory microbenchmarks only: hwcomm run --filter 'method=gpumem-*' with the other options passed on "
        "(-o FILE, --quick, --force, --filter src=gpu0, ...)");
    sub->allow_extras();
    sub->prefix_command();
    sub->callback([&action, passed, sub] {
        *passed = sub->remaining();
        action = [passed] { return gpumem_command(*passed); };
    });
}

}  // namespace hwcomm::cli
