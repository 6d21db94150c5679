#pragma once
// hwcomm predict --transfers FILE: the model's answer for every set of a
// transfer-set file (each transfer while the others run, and the aggregate
// over the slowest), beside the measured record of the same set when the
// results files hold one; that record is then held out of the model, so the
// answer is not fitted on what it is compared with.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "model/fit.hpp"
#include "model/model.hpp"

namespace hwcomm::cli {

struct PredictSetsArgs {
    std::string transfers;                  // FILE | preset:NAME
    std::optional<std::uint64_t> bytes;     // --size: for sets without a size of their own
    bool json = false;
};

// `inputs`: the results files the model was fitted on (empty with --model).
int predict_transfer_sets(const model::Model& m, const Graph& graph, const std::vector<model::NamedResults>& inputs,
                          const PredictSetsArgs& args);

}  // namespace hwcomm::cli
