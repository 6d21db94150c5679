// hwcomm analyze FILES... [--json | --markdown] [--min-size SIZE] [--max-size SIZE]
// [--threshold FRACTION] [--statistic median|mean|max] [--cluster-threshold F]
// [-o FILE]: the study's six tables as cells with verdicts, efficiency and
// anomalies (docs/analysis.md); for a cluster file, the nodes and node pairs
// that differ from their peers (docs/cluster-view.md).
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "analyze/cluster.hpp"
#include "analyze/cpu_facts.hpp"
#include "analyze/load_table.hpp"
#include "analyze/matrix.hpp"
#include "analyze/study.hpp"
#include "io/results_file.hpp"
#include "cli/commands.hpp"
#include "cli/output_text.hpp"
#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "core/results.hpp"
#include "core/utf8.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::cli {

namespace {

struct AnalyzeArgs {
    std::vector<std::string> files;
    bool json = false, markdown = false, force = false;
    std::string min_size = "64M", max_size, statistic = "median", output;
    double threshold = 0.05;
    double cluster_threshold = analyze::kClusterDefaultThreshold;
    std::string node;  // cluster files: the study of this node alone
};

// --node: a cluster input becomes the file of that one node ("FILE[node]"),
// so the study's tables see plain ids and that node's graph.
std::vector<analyze::NamedResults> study_inputs(const std::vector<analyze::NamedResults>& inputs, const std::string& node) {
    if (node.empty()) return inputs;
    std::vector<analyze::NamedResults> out;
    bool any = false;
    for (const auto& in : inputs) {
        try {
            if (const auto cluster = cluster_section_of(in.file)) {
                out.push_back({in.name + "[" + node + "]", cluster_node_results(in.file, *cluster, node)});
                any = true;
                continue;
            }
        } catch (const UsageError& e) {
            throw UsageError("analyze: " + in.name + ": " + e.what());
        }
        out.push_back(in);
    }
    if (!any) throw UsageError("analyze: --node needs a cluster results file");
    return out;
}

// The cluster view of each input that holds several nodes (docs/cluster-view.md).
std::vector<analyze::ClusterAnalysis> cluster_views(const std::vector<analyze::NamedResults>& inputs, double threshold) {
    std::vector<analyze::ClusterAnalysis> out;
    for (const auto& in : inputs) {
        try {
            if (const auto cluster = cluster_section_of(in.file))
                out.push_back(analyze::analyze_cluster(in.name, in.file, *cluster, threshold));
        } catch (const std::runtime_error& e) {  // a malformed cluster section
            throw UsageError("analyze: " + in.name + ": " + e.what());
        }
    }
    return out;
}

int run_analyze(const AnalyzeArgs& a) {
    if (!a.output.empty() && std::filesystem::exists(a.output) && !a.force)
        throw UsageError("analyze: " + a.output + " exists; use --force to overwrite it");
    analyze::VerdictRule rule;
    try {
        // The project's one size parser (measure/byte_size.hpp), naming the option.
        const auto size = [](const char* option, const std::string& text) {
            try {
                return parse_size(text);
            } catch (const UsageError& e) {
                throw std::invalid_argument(std::string(option) + ": " + e.what());
            }
        };
        rule.min_bytes = size("--min-size", a.min_size);
        if (!a.max_size.empty()) rule.max_bytes = size("--max-size", a.max_size);
        rule.threshold = a.threshold;
        rule.statistic = a.statistic;
        analyze::validate(rule);
        if (!(a.cluster_threshold > 0 && a.cluster_threshold < 1))
            throw std::invalid_argument("--cluster-threshold must be in (0, 1)");
    } catch (const std::exception& e) {
        throw UsageError(std::string("analyze: ") + e.what());
    }
    std::vector<analyze::NamedResults> inputs;
    for (const auto& f : a.files) {
        try {
            inputs.push_back({to_valid_utf8(f), load_results_file(f)});  // the name is shown: UTF-8
        } catch (const std::runtime_error& e) {  // names the file already
            throw UsageError(std::string("analyze: ") + e.what());
        }
    }
    const analyze::Analysis result = analyze::analyze_results(study_inputs(inputs, a.node), rule);
    // Bandwidth against load (under-load, priority records): docs/under-load.md.
    std::vector<Record> all_records;
    for (const auto& in : inputs) all_records.insert(all_records.end(), in.file.records.begin(), in.file.records.end());
    std::vector<const nlohmann::json*> metas;
    for (const auto& in : inputs) metas.push_back(&in.file.meta);
    const MethodCatalog catalog = catalog_for(metas);
    const auto load = analyze::load_tables(all_records, catalog);
    const auto priority = analyze::priority_tables(all_records, catalog);
    const auto clusters = cluster_views(inputs, a.cluster_threshold);
    nlohmann::json json_out;
    std::string cluster_text;
    if (a.json) {
        json_out = analyze::analysis_to_json(result);
        if (!load.empty() || !priority.empty()) json_out["load"] = analyze::load_tables_to_json(load, priority);
        if (!analyze::format_cpu_section(all_records).empty()) json_out["cpu"] = analyze::cpu_facts_json(all_records);
        if (!clusters.empty()) json_out["cluster"] = nlohmann::json::array();
        for (const auto& c : clusters) json_out["cluster"].push_back(analyze::cluster_analysis_to_json(c));
    }
    for (const auto& c : clusters)
        cluster_text += a.markdown ? analyze::format_cluster_analysis_markdown(c)
                                   : "\n" + analyze::format_cluster_analysis_text(c);
    // CPU memory: bandwidth kernels, latency matrix and ladder, loaded latency, mixes (docs/cpu-methods.md).
    const std::string cpu = analyze::format_cpu_section(all_records);
    const std::string cpu_text = cpu.empty() ? "" : a.markdown ? "\n```\n" + cpu + "```\n" : "\n" + cpu;
    const std::string text = a.json       ? json_out.dump(1) + "\n"
                             : a.markdown ? analyze::format_analysis_markdown(result) + cpu_text + cluster_text
                                          : analyze::format_analysis_text(result) +
                                                analyze::format_load_tables(load, priority) + cpu_text + cluster_text;
    print_or_write(a.output, text, "analyze: ");
    return 0;
}

}  // namespace

void add_analyze_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<AnalyzeArgs>();
    auto* sub = app.add_subcommand("analyze", "The study's conclusions (affinity, anisotropy, identical links, "
                                              "peer effect) with verdicts, efficiency and anomalies");
    sub->add_option("files", args->files, "results files (measured or imported)")->required();
    auto* json = sub->add_flag("--json", args->json, "write schema hwcomm.analyze/v1");
    sub->add_flag("--markdown", args->markdown, "write Markdown tables")->excludes(json);
    sub->add_option("--min-size", args->min_size, "smallest size that decides a verdict (default 64M)");
    sub->add_option("--max-size", args->max_size, "largest size that decides a verdict (default: none)");
    sub->add_option("--threshold", args->threshold, "relative difference that counts as an effect (default 0.05)");
    sub->add_option("--cluster-threshold", args->cluster_threshold,
                    "cluster files: flag a node or node pair this fraction below its peers' median (default 0.15)");
    sub->add_option("--node", args->node, "cluster files: the study's tables of this node alone");
    sub->add_option("--statistic", args->statistic, "median (default), mean or max over the size window");
    sub->add_option("-o,--output", args->output, "file to write instead of standard output");
    sub->add_flag("--force", args->force, "overwrite an existing -o file");
    sub->callback([&action, args] { action = [args] { return run_analyze(*args); }; });
}

}  // namespace hwcomm::cli
