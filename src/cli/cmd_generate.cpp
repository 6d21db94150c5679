// hwcomm __generate man DIR | bash [FILE] | zsh [FILE] | endpoints: hidden; the build calls
// it to write the man pages and completion scripts from the parser's own
// option definitions, and the completions call `endpoints` for this machine's
// endpoint ids.
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "cli/cli_walk.hpp"
#include "cli/commands.hpp"
#include "cli/gen_completion.hpp"
#include "cli/gen_man.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "platform/atomic_file.hpp"
#include "run/plan.hpp"

namespace hwcomm::cli {

namespace {

struct GenerateArgs {
    std::string what;
    std::string path;  // man: the directory; bash, zsh: the file (default standard output)
};

void emit(const std::string& text, const std::string& path) {
    if (path.empty()) std::cout << text;
    else write_file_atomically(path, text);
}

std::vector<std::string> method_names() {
    const Registry registry = build_registry();  // outlives the loop over its methods
    std::vector<std::string> names;
    for (const auto& m : registry.all()) names.push_back(m->name());
    return names;
}

// The endpoint ids a --filter src=/dst= can name: the ends of every planned record.
void print_endpoints() {
    const Graph graph = discover_machine(DiscoverOptions{});
    const Registry registry = build_registry();
    std::set<std::string> ids;
    for (const auto& p : build_plan(graph, registry, Filters{}, MethodOptions{})) {
        ids.insert(p.src_id);
        ids.insert(p.dst_id);
    }
    for (const auto& id : ids) std::cout << id << "\n";
}

int generate(const CLI::App& app, const GenerateArgs& a) {
    const auto commands = describe_cli(app);
    if (a.what == "bash") emit(bash_completion(commands, method_names()), a.path);
    else if (a.what == "zsh") emit(zsh_completion(commands, method_names()), a.path);
    else if (a.what == "endpoints") print_endpoints();
    else if (a.what == "man") {
        if (a.path.empty()) throw UsageError("__generate man needs the directory to write the pages into");
        std::filesystem::create_directories(a.path);
        for (const auto& [name, text] : man_pages(commands, HWCOMM_VERSION))
            write_file_atomically((std::filesystem::path(a.path) / name).string(), text);
    }
    return 0;
}

}  // namespace

void add_generate_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<GenerateArgs>();
    auto* sub = app.add_subcommand("__generate", "man pages, shell completions, endpoint ids (for the build)");
    sub->group("");  // hidden from --help, the man pages and the completions
    sub->add_option("what", args->what)->required()->check(CLI::IsMember({"man", "bash", "zsh", "endpoints"}));
    sub->add_option("path", args->path);
    const CLI::App* root = &app;
    sub->callback([&action, args, root] { action = [args, root] { return generate(*root, *args); }; });
}

}  // namespace hwcomm::cli
