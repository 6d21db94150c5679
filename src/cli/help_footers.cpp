// The end of every command's --help (and of its man page): an example and the
// exit codes that command can return (docs/cli.md has the full table).
#include <map>
#include <string>

#include "cli/commands.hpp"

namespace hwcomm::cli {

namespace {

struct Footer {
    const char* example;
    const char* exit_codes;  // besides 0 and 2, in order
    const char* before = "";  // what the command's options do not say (gpumem passes its options on)
};

// gpumem declares no options of its own (it passes them to run): its help names its parts and what it takes.
constexpr const char* kGpumemParts =
    "\nParts (one method each, all run unless --filter method=... picks; docs/gpumem.md):\n"
    "  gpumem-timeline   per-warp load latency on the SM clock, warps by start, coloured by SM\n"
    "  gpumem-occupancy  DRAM read bandwidth against resident warps per SM, with Little's-law bounds\n"
    "  gpumem-stride     strided loads: effective GB/s and 32-byte sectors per request\n"
    "  gpumem-latency    pointer-chase latency ladder: L1, L2, DRAM, a peer GPU, pinned host memory per NUMA node\n"
    "\nOptions: those of hwcomm run (hwcomm run --help), passed on: -o FILE, --force, --resume FILE, --quick,\n"
    "--filter method=gpumem-stride, --filter src=gpu0, --timing event|wall, --min-samples N, ...; and\n"
    "  --ncu             add Nsight Compute's sector counts to gpumem-stride (needs ncu on the PATH)\n";

const char* const kUsage = "  2  bad input (one line on stderr; no file written or changed)\n";

const std::map<std::string, Footer>& footers() {
    static const std::map<std::string, Footer> table{
        {"topo", {"hwcomm topo --matrix\n  hwcomm topo --path gpu0 numa1", ""}},
        {"list", {"hwcomm list --all\n  hwcomm list --json > methods.json", ""}},
        {"run",
         {"hwcomm run --quick -o quick.json\n  hwcomm run --filter method=memcpy-h2d --filter src=numa0 -o h2d.json",
          "  3  finished, some records are errors (the file says which and why)\n"
          "  4  interrupted: the file is valid; complete it with hwcomm run --resume FILE\n"}},
        {"gpumem",
         {"hwcomm gpumem --quick --filter src=gpu0 -o gpumem.json\n  hwcomm gpumem --ncu --filter method=gpumem-stride -o stride.json",
          "  3  finished, some records are errors (the file says which and why)\n"
          "  4  interrupted: the file is valid; complete it with hwcomm run --resume FILE\n", kGpumemParts}},
        {"model", {"hwcomm model fit results.json -o model.json\n  hwcomm model check results.json", ""}},
        {"predict", {"hwcomm predict --model model.json --method memcpy-h2d --src numa0 --dst gpu0 --size 64MiB", ""}},
        {"export", {"hwcomm export results.json.gz --format csv -o results.csv", ""}},
        {"summary", {"hwcomm summary results.json --targets docs/targets-h200x2.json",
                     "  1  a reference figure was missed, or the file is from another machine\n"}},
        {"report", {"hwcomm report a.json b.json -o report.html", ""}},
        {"import", {"hwcomm import comm_scope.json --topology machine.xml -o results.json", ""}},
        {"analyze", {"hwcomm analyze results.json --markdown", ""}},
        {"compare", {"hwcomm compare before.json after.json --threshold 5",
                     "  1  some change is beyond the threshold\n"}},
    };
    return table;
}

std::string footer_text(const std::string& command, const Footer& f) {
    std::string codes = std::string("  0  done\n") + kUsage + f.exit_codes;
    if (std::string(f.exit_codes).rfind("  1", 0) == 0)  // 1 goes before 2
        codes = std::string("  0  done\n") + f.exit_codes + kUsage;
    return std::string(f.before) + "\nExample:\n  " + f.example + "\n\nExit codes:\n" + codes + "More: man hwcomm-" + command +
           ", docs/cli.md.";
}

}  // namespace

void add_help_footers(CLI::App& app) {
    app.footer(
        "\nExample:\n  hwcomm topo && hwcomm run --quick -o quick.json && hwcomm summary quick.json\n\n"
        "Exit codes:\n  0  done\n  1  a check failed (summary --targets, compare --threshold)\n"
        "  2  bad input\n  3  run finished with error records\n  4  run interrupted (complete it with --resume)\n"
        "Each command: hwcomm COMMAND --help, man hwcomm-COMMAND.");
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        const auto it = footers().find(sub->get_name());
        if (it != footers().end()) sub->footer(footer_text(it->first, it->second));
    }
}

}  // namespace hwcomm::cli
