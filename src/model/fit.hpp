#pragma once
// hwcomm model fit: results files -> Model. One curve per ok record whose
// points are a size sweep; the concurrency records (several measured lanes)
// also give the capacity of the edge their lanes shared.
#include <string>
#include <vector>

#include <optional>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "model/model.hpp"

namespace hwcomm::model {

struct NamedResults {
    std::string path;
    ResultsFile file;
};

// Throws UsageError when the files hold the same record twice or nothing to fit.
Model fit_model(const std::vector<NamedResults>& inputs);

// The model as if the records `keys` had never been measured: their curves and
// what they taught the shared edges are dropped (the checks predict them with it).
Model without_records(const Model& model, const std::vector<std::string>& keys);

// Records whose lanes shared an edge, each with its load level: how many
// transfers crossed the edge they shared most.
std::map<std::string, std::size_t> record_levels(const Model& model);

// One record's curve (nullopt: no usable point, or its points are not a size sweep).
std::optional<CurveModel> fit_record(const Record& record, const Graph* graph);

// The lanes of a concurrency record and the edges most of them cross the same
// way, each with the record's aggregate plateau as its capacity; empty when
// fewer than two measured lanes share an edge.
std::vector<SharedEdgeFit> fit_shared_edges(const Record& record, const CurveModel& aggregate, const Graph& graph);

// The single-transfer method a concurrency lane stands for ("all-to-host"
// mode=ce -> memcpy-d2h host_mem=pinned), as method and a params filter.
struct SoloEquivalent {
    std::string method;
    std::map<std::string, std::string> params;
};
std::optional<SoloEquivalent> solo_equivalent(const LaneSpec& lane);

}  // namespace hwcomm::model
