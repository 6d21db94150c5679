#pragma once
// Results files for the model commands, each load failure one UsageError line.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/results_file.hpp"
#include "model/fit.hpp"

namespace hwcomm::cli {

inline std::vector<model::NamedResults> load_model_inputs(const std::vector<std::string>& files,
                                                          const std::string& command) {
    std::vector<model::NamedResults> out;
    for (const std::string& f : files) {
        try {
            out.push_back({f, load_results_file(f)});
        } catch (const UsageError& e) {
            throw UsageError(command + ": " + e.what());
        } catch (const std::runtime_error& e) {
            throw UsageError(command + ": " + f + ": " + e.what());
        }
    }
    return out;
}

}  // namespace hwcomm::cli
