#pragma once
// hwcomm model fit: results files -> Model. One curve per ok record whose
// points are a size sweep; the concurrency records (several measured lanes)
// also give the capacity of the edge their lanes shared.
#include <string>
#include <vector>

#include <optional>

#include "catalog/method_catalog.hpp"
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

// One record's curve (nullopt: no usable point, or its points are not a size
// sweep). `row`: the record's method row (null: a method no catalog knows).
std::optional<CurveModel> fit_record(const Record& record, const MethodRow* row, const Graph* graph);

// The lanes of a concurrency record and the edges most of them cross the same
// way, each with the record's aggregate plateau as its capacity; empty when
// fewer than two measured lanes share an edge.
std::vector<SharedEdgeFit> fit_shared_edges(const Record& record, const CurveModel& aggregate, const Graph& graph,
                                            const MethodCatalog& catalog);

// The single-transfer method a lane stands for, as method and a params filter:
// the first of the solo rules of the lane method's row that matches the lane's
// direction and params (a copy-engine lane of a concurrency set from a GPU to
// the host: the pinned device-to-host copy). nullopt: no row or no rule.
struct SoloEquivalent {
    std::string method;
    std::map<std::string, std::string> params;
};
std::optional<SoloEquivalent> solo_equivalent(const LaneSpec& lane, const MethodCatalog& catalog);

}  // namespace hwcomm::model
