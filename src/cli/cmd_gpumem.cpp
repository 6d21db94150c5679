// hwcomm gpumem: a short way to run only the GPU memory microbenchmarks
// (docs/gpumem.md). It is `hwcomm run --filter 'method=gpumem-*'` with every
// other argument passed on; with --quick it keeps 1 GiB in the sweep (the
// fixed-footprint methods measure at 64 MiB and 1 GiB, which --quick's
// 64 MiB limit would drop) unless --max-size is given.
#include <fnmatch.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "catalog/method_catalog.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#ifdef HWCOMM_HAVE_CUDA
#include "cli/gpumem_ncu.hpp"
#endif

namespace hwcomm::cli {

namespace {

bool given(const std::vector<std::string>& args, const std::string& option) {
    return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
        return a == option || a.rfind(option + "=", 0) == 0;
    });
}

// Whether a --filter method=PATTERN of the user's names a method of the GPU memory family.
bool names_gpumem_methods(const std::vector<std::string>& args) {
    const std::string key = "method=";
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != "--filter" || args[i + 1].rfind(key, 0) != 0) continue;
        const std::string pattern = args[i + 1].substr(key.size());
        for (const MethodRow& row : builtin_catalog().rows())
            if (row.family == MethodFamily::GpuMemory && fnmatch(pattern.c_str(), row.name.c_str(), 0) == 0) return true;
    }
    return false;
}

// The results file the run writes: -o/--output FILE, --resume FILE, or the default
// (read for --ncu, which a build without CUDA does not have).
[[maybe_unused]] std::string output_of(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if ((a == "-o" || a == "--output" || a == "--resume") && i + 1 < args.size()) return args[i + 1];
        for (const std::string prefix : {"--output=", "--resume="})
            if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
    }
    return "hwcomm-results.json";
}

int gpumem_command(std::vector<std::string> passed) {
    const bool ncu = given(passed, "--ncu");
    if (ncu) passed.erase(std::remove(passed.begin(), passed.end(), std::string("--ncu")), passed.end());
    if (given(passed, "--ncu")) throw UsageError("gpumem: --ncu takes no value");
    // Filters of one key add up: a method=gpumem-stride of the user's own must replace ours, not join it.
    std::vector<std::string> args{"run"};
    if (!names_gpumem_methods(passed)) args.insert(args.end(), {"--filter", "method=gpumem-*"});
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
                     [&](const auto& m) { return registry.row(*m).family == MethodFamily::GpuMemory; }))
        throw UsageError("gpumem: this build has no CUDA methods (configured without CUDA)");
    const int code = run ? run() : 0;
#ifdef HWCOMM_HAVE_CUDA
    // Only a finished run: an interrupted one (4) is resumed first, a lost GPU (3) profiles nothing.
    if (ncu && (code == 0 || code == 1)) add_ncu_sectors(output_of(passed));
#endif
    return code;
}

}  // namespace

void add_gpumem_command(CLI::App& app, Action& action) {
    auto passed = std::make_shared<std::vector<std::string>>();
    auto* sub = app.add_subcommand(
        "gpumem",
        "GPU memory microbenchmarks only: hwcomm run --filter 'method=gpumem-*' with the other options passed on "
        "(-o FILE, --quick, --force, --filter src=gpu0, ...); --ncu adds Nsight Compute's sector counts to gpumem-stride");
    sub->allow_extras();
    sub->prefix_command();
#ifdef HWCOMM_HAVE_CUDA
    add_stride_kernels_command(app, action);
#endif
    sub->callback([&action, passed, sub] {
        *passed = sub->remaining();
        action = [passed] { return gpumem_command(*passed); };
    });
}

}  // namespace hwcomm::cli
