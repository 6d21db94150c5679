// hwcomm import FILE|DIR... -o OUT.json [--topology FILE.xml] [--force]:
// Comm|Scope / Google Benchmark JSON into a results file (provenance
// "imported"). Directories contribute their *.json files. With --topology the
// machine's hwloc export is attached, so local/remote and link limits are
// known to `analyze`; without it the command says what cannot be concluded.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output_text.hpp"
#include "io/results_file.hpp"
#include "io/results_json.hpp"
#include "core/error.hpp"
#include "io/results_json.hpp"
#include "core/graph_json.hpp"
#include "core/results.hpp"
#include "discover/discover.hpp"
#include "import/commscope.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm::cli {

namespace {

struct ImportArgs {
    std::vector<std::string> inputs;
    std::string output, topology;
    bool force = false;
};

std::vector<std::string> expand(const std::vector<std::string>& inputs) {
    std::vector<std::string> files;
    for (const auto& in : inputs) {
        std::error_code ec;
        if (std::filesystem::is_directory(in, ec)) {
            std::vector<std::string> found;
            for (const auto& e : std::filesystem::directory_iterator(in, ec))
                if (e.path().extension() == ".json") found.push_back(e.path().string());
            if (found.empty()) throw UsageError("import: " + in + " is a directory without *.json files");
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else if (std::filesystem::exists(in, ec)) {
            files.push_back(in);
        } else {
            throw UsageError("import: " + in + " does not exist");
        }
    }
    return files;
}

// Endpoints the records name that the topology lacks.
std::set<std::string> missing_endpoints(const ResultsFile& f, const Graph& g) {
    std::set<std::string> missing;
    for (const Record& r : f.records)
        for (const std::string& id : {r.src, r.dst})
            if (!g.find(id)) missing.insert(id);
    return missing;
}

int run_import(const ImportArgs& a) {
    if (std::filesystem::exists(a.output) && !a.force)
        throw UsageError("import: " + a.output + " exists; use --force to overwrite it");
    std::string why;
    if (!directory_writable_for(a.output, &why)) throw UsageError("import: cannot write " + a.output + ": " + why);
    nlohmann::json topology = nlohmann::json::object();
    std::optional<Graph> graph;
    if (!a.topology.empty()) {
        graph = discover_machine({.input_xml = a.topology, .use_nvml = false, .use_cuda = false});
        topology = graph_to_json(*graph);
    }
    import::Importer importer;
    for (const auto& file : expand(a.inputs)) importer.add_file(file);
    ResultsFile results = importer.finish(topology);
    std::cout << import::format_report(importer.report());
    if (results.records.empty())
        throw UsageError("import: nothing imported: " + import::why_nothing_imported(importer.report()));
    std::cout << results.records.size() << " records\n";
    if (graph) {
        for (const auto& id : missing_endpoints(results, *graph))
            std::cout << "warning: " << id << " is not in " << a.topology << "\n";
    } else {
        std::cout << "no --topology: which GPUs are local to which NUMA node, which pairs are NVLink-connected "
                     "and the links' limits are unknown; analyze will say no-data for local/remote cells\n";
    }
    print_or_write(a.output, results_to_json(results).dump(1) + "\n", "import: ");
    std::cout << "wrote " << a.output << "\n";
    return 0;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ImportArgs>();
    auto* sub = app.add_subcommand("import", "Comm|Scope / Google Benchmark JSON into a results file");
    sub->add_option("inputs", args->inputs, "JSON files or directories of them")->required();
    sub->add_option("-o,--output", args->output, "results file to write")->required();
    sub->add_option("--topology", args->topology, "hwloc XML export of the machine the data comes from");
    sub->add_flag("--force", args->force, "overwrite an existing -o file");
    sub->callback([&action, args] { action = [args] { return run_import(*args); }; });
}

}  // namespace hwcomm::cli
