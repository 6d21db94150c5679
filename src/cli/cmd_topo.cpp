// hwcomm topo: discover the machine graph (this machine, an hwloc XML export or
// a saved sysfs tree; NVML live or replayed) and print it as a tree, JSON, DOT
// or the nvidia-smi style matrix; --record-nvml saves this machine's NVML answers.
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "discover/discover.hpp"
#include "discover/nvml_api.hpp"
#include "platform/atomic_file.hpp"
#include "report/html/topo_svg.hpp"
#include "report/topo_render.hpp"

namespace hwcomm::cli {

namespace {

struct TopoOptions {
    DiscoverOptions discover;
    TopoView view;
    bool json = false, dot = false, matrix = false;
    std::string output;
    bool force = false;
    std::string record_nvml;
    std::string svg;  // the report's topology picture, alone
};

void write_output(const std::string& path, const std::string& text) {
    try {
        write_file_atomically(path, text);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

void record_live_nvml(const std::string& path) {
    std::string why_not;
    auto source = nvml::open_live_nvml(&why_not);
    if (!source) throw UsageError("cannot record NVML: " + why_not);
    const unsigned count = source->device_count();
    write_output(path, nvml::record_nvml(*source).dump(1) + "\n");
    std::cerr << "hwcomm: NVML answers for " << count << " GPU(s) recorded in " << path << "\n";
}

int run_topo(TopoOptions options) {
    if (!options.record_nvml.empty()) {
        if (!options.discover.input_xml.empty() || !options.discover.fsroot.empty() ||
            !options.discover.nvml_replay.empty())
            throw UsageError("--record-nvml records this machine's NVML; it excludes --input, --fsroot and --nvml-replay");
        record_live_nvml(options.record_nvml);
    }
    options.view.format = options.json ? TopoFormat::Json
                        : options.dot ? TopoFormat::Dot
                        : options.matrix ? TopoFormat::Matrix
                                         : TopoFormat::Tree;
    // Like run and export: an existing file is replaced only when asked (devices and pipes are written in place).
    if (!options.output.empty() && !options.force && inspect_output(options.output).kind == OutputKind::RegularFile)
        throw UsageError(options.output + " exists; use --force to overwrite it");
    const Graph graph = discover_machine(options.discover);
    if (!options.svg.empty()) write_output(options.svg, report_html::topology_svg(graph, {}) + "\n");
    const std::string text = render_topology(graph, options.view);
    if (options.output.empty()) std::cout << text << std::flush;
    else write_output(options.output, text);
    return 0;
}

}  // namespace

void add_topo_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("topo", "Discover the machine as a graph and print it (tree, JSON, DOT or matrix)");
    auto options = std::make_shared<TopoOptions>();
    auto* input = sub->add_option("--input", options->discover.input_xml, "Read an hwloc XML export instead of this machine");
    auto* fsroot = sub->add_option("--fsroot", options->discover.fsroot, "Read a saved Linux sysfs tree (directory) instead of this machine");
    input->excludes(fsroot);
    sub->add_option("--nvml-replay", options->discover.nvml_replay, "Replay NVML answers from a recording instead of the driver");
    sub->add_option("--record-nvml", options->record_nvml, "Record this machine's NVML answers into FILE (JSON)");
    auto* json = sub->add_flag("--json", options->json, "Print the graph as JSON (schema hwcomm-topology)");
    auto* dot = sub->add_flag("--dot", options->dot, "Print the graph for Graphviz");
    auto* matrix = sub->add_flag("--matrix", options->matrix, "Print the GPU/NIC matrix like nvidia-smi topo -m");
    json->excludes(dot);
    json->excludes(matrix);
    dot->excludes(matrix);
    auto* device = sub->add_option("--device", options->view.device, "Show one device (e.g. gpu0, numa1), its links and paths");
    auto* path = sub->add_option("--path", options->view.path, "Show the path between two devices: --path gpu0 gpu1");
    path->expected(2);
    for (auto* format : {json, dot, matrix}) {
        device->excludes(format);
        path->excludes(format);
    }
    device->excludes(path);
    sub->add_option("--svg", options->svg, "Also draw the graph as a picture into FILE (SVG, as in hwcomm report)");
    sub->add_option("--output,-o", options->output, "Write to FILE (atomically) instead of standard output");
    sub->add_flag("--force", options->force, "Overwrite an existing --output file");
    sub->add_flag("--all", options->view.all, "Tree: also show PCI functions that carry nothing");
    sub->callback([&action, options] { action = [options] { return run_topo(*options); }; });
}

}  // namespace hwcomm::cli
