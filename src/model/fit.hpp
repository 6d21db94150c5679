#pragma once
// hwcomm model fit: results files -> Model. One curve per ok record whose
// points are a size sweep; every record of transfers run together
// (concurrency, under-load, --transfers sets) also tells what the edge its
// lanes shared carried for that many of them, and each shared edge and kind
// of transfer gets a capacity curve through those counts.
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

// What the edges most of a multi-lane record's lanes crossed the same way
// carried for them: one observation per edge, with the kind of its lanes.
// The lanes' demand is what `singles` predicts for each alone. Empty, with
// `why` set, when fewer than two lanes share an edge or a lane's rate alone
// is unknown.
struct EdgeTestimony {
    std::string edge, what, kind;
    double stated_gbps = 0;
    EdgeObservation observation;
};
std::vector<EdgeTestimony> shared_edge_observations(const Record& record, const CurveModel& aggregate,
                                                    const Model& singles, const Graph& graph, std::string& why);

// The kind of a transfer for its shared edges: method and the parameters that
// pick a single-transfer curve ("memcpy-h2d host_mem=pinned").
std::string transfer_kind(const std::string& method, const std::map<std::string, std::string>& params);

// The single-transfer method a lane stands for, from its method's catalog row
// ("all-to-host" mode=ce -> memcpy-d2h host_mem=pinned), as method and a
// params filter; nullopt for a method without a row or a matching rule.
struct SoloEquivalent {
    std::string method;
    std::map<std::string, std::string> params;
};
std::optional<SoloEquivalent> solo_equivalent(const LaneSpec& lane);

}  // namespace hwcomm::model
