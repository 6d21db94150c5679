// hwcomm topo: discover the machine graph (this machine, an hwloc XML export or
// a saved sysfs tree; NVML live or replayed) and print it as a tree, JSON, DOT
// or the nvidia-smi style matrix; --record-nvml saves this machine's NVML answers.
// topo FILE shows the graph a results file holds; a cluster file's nodes, NICs
// and inter-node links, or one node's graph with --node (docs/cluster-view.md).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "cli/output_text.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "discover/discover.hpp"
#include "discover/nvml_api.hpp"
#include "io/cluster_section.hpp"
#include "io/results_file.hpp"
#include "platform/atomic_file.hpp"
#include "report/html/topo_svg.hpp"
#include "report/topo_cluster.hpp"
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
    std::string results;  // FILE: a results file instead of discovery
    std::string node;     // --node: one node of a cluster results file
};

ResultsFile load_results_for_topo(const std::string& path) {
    try {
        return load_results_file(path);
    } catch (const std::runtime_error& e) {  // one line naming the file
        throw UsageError(e.what());
    }
}

// The graph of a single-node results file, or of one node of a cluster file.
Graph stored_graph(const ResultsFile& file, const std::optional<ClusterSection>& cluster, const TopoOptions& o) {
    if (cluster) {
        if (o.node.empty()) throw UsageError(o.results + " is a cluster file: --device, --path, --matrix and --svg show one node: add --node");
        return cluster_node_graph(*cluster, o.node);
    }
    if (!o.node.empty()) throw UsageError("--node: " + o.results + " is not a cluster file");
    if (!file.topology.is_object() || !file.topology.contains("vertices"))
        throw UsageError(o.results + " holds no topology");
    try {
        return graph_from_json(file.topology);
    } catch (const std::exception& e) {
        throw UsageError(o.results + ": its topology does not parse: " + e.what());
    }
}

void record_live_nvml(const std::string& path) {
    std::string why_not;
    auto source = nvml::open_live_nvml(&why_not);
    if (!source) throw UsageError("cannot record NVML: " + why_not);
    const unsigned count = source->device_count();
    print_or_write(path, nvml::record_nvml(*source).dump(1) + "\n");
    std::cerr << "hwcomm: NVML answers for " << count << " GPU(s) recorded in " << path << "\n";
}

int run_topo(TopoOptions options) {
    // Like run and export: an existing file is replaced only when asked
    // (devices and pipes are written in place), checked before any work.
    for (const std::string* out : {&options.output, &options.svg, &options.record_nvml})
        if (!out->empty()) check_new_output(*out, options.force);
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
    std::optional<ClusterSection> cluster;
    ResultsFile stored;
    if (!options.results.empty()) {
        stored = load_results_for_topo(options.results);
        try {
            cluster = cluster_section_of(stored);
        } catch (const UsageError& e) {
            throw UsageError(options.results + ": " + e.what());
        }
        const bool one_node_view = !options.view.device.empty() || !options.view.path.empty() ||
                                   options.view.format == TopoFormat::Matrix || !options.svg.empty();
        if (cluster && options.node.empty() && !one_node_view) {
            const std::string text = render_cluster_topology(stored, *cluster, options.view.format);
            print_or_write(options.output, text);
            return 0;
        }
    } else if (!options.node.empty()) {
        throw UsageError("--node needs a cluster results file (hwcomm topo FILE --node NAME)");
    }
    const Graph graph = options.results.empty() ? discover_machine(options.discover)
                                                : stored_graph(stored, cluster, options);
    if (!options.svg.empty()) print_or_write(options.svg, report_html::topology_svg(graph, {}) + "\n");
    const std::string text = render_topology(graph, options.view);
    print_or_write(options.output, text);
    return 0;
}

}  // namespace

void add_topo_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("topo", "Discover the machine as a graph and print it (tree, JSON, DOT or matrix)");
    auto options = std::make_shared<TopoOptions>();
    auto* input = sub->add_option("--input", options->discover.input_xml, "Read an hwloc XML export instead of this machine");
    auto* fsroot = sub->add_option("--fsroot", options->discover.fsroot, "Read a saved Linux sysfs tree (directory) instead of this machine");
    input->excludes(fsroot);
    auto* replay = sub->add_option("--nvml-replay", options->discover.nvml_replay, "Replay NVML answers from a recording instead of the driver");
    auto* record = sub->add_option("--record-nvml", options->record_nvml, "Record this machine's NVML answers into FILE (JSON)");
    auto* results = sub->add_option("file", options->results,
                                    "A results file: show the graph it holds (a cluster file: its nodes, their NICs "
                                    "and the inter-node links measured)");
    for (auto* other : {input, fsroot, replay, record}) results->excludes(other);
    sub->add_option("--node", options->node, "With a cluster results FILE: show this node's graph");
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
    sub->add_flag("--force", options->force, "Overwrite an existing --output, --svg or --record-nvml file");
    sub->add_flag("--all", options->view.all, "Tree: also show PCI functions that carry nothing");
    sub->callback([&action, options] { action = [options] { return run_topo(*options); }; });
}

}  // namespace hwcomm::cli
