#pragma once
// Results files for the model commands, each load failure one UsageError line.
// With a node name, each input is a cluster file and stands for that node
// alone (its graph, its records with plain ids): a model is of one machine.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/utf8.hpp"
#include "io/cluster_section.hpp"
#include "io/results_file.hpp"
#include "model/fit.hpp"

namespace hwcomm::cli {

inline std::vector<model::NamedResults> load_model_inputs(const std::vector<std::string>& files,
                                                          const std::string& command, const std::string& node = "") {
    std::vector<model::NamedResults> out;
    for (const std::string& f : files) {
        try {
            ResultsFile file = load_results_file(f);
            if (node.empty()) {
                out.push_back({to_valid_utf8(f), std::move(file)});  // the name is shown: UTF-8
                continue;
            }
            try {
                const auto cluster = cluster_section_of(file);
                if (!cluster) throw UsageError("not a cluster file (--node)");
                out.push_back({to_valid_utf8(f) + "[" + node + "]", cluster_node_results(file, *cluster, node)});
            } catch (const UsageError& e) {
                throw UsageError(f + ": " + e.what());
            }
        } catch (const UsageError& e) {
            throw UsageError(command + ": " + e.what());
        } catch (const std::runtime_error& e) {
            throw UsageError(command + ": " + f + ": " + e.what());
        }
    }
    return out;
}

}  // namespace hwcomm::cli
