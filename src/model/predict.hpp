#pragma once
// hwcomm predict: how long one transfer takes, alone or while others load the
// same edges. A measured (method, src, dst, params) answers from its own
// curve; a pair never measured from the graph: its bottleneck's stated rate
// times the efficiency the same method reached on edges of the same kind,
// labelled extrapolated.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "model/model.hpp"

namespace hwcomm::model {

struct Query {
    std::string method;
    std::map<std::string, std::string> params;  // a filter: the curve's params must include these
    std::string src, dst;
    std::uint64_t bytes = 0;
    std::string text() const;                   // "memcpy-peer gpu0->gpu1 peer=on 64 MiB"
};

// "M[:k=v,...] A->B SIZE" (the --while syntax); UsageError for anything else.
Query parse_transfer(const std::string& text);

struct Answer {
    Query query;
    std::string basis = "measured";            // "measured" | "extrapolated"
    double seconds = 0, seconds_low = 0, seconds_high = 0;
    double gbps = 0, gbps_low = 0, gbps_high = 0;  // bytes moved / time
    std::string regime;
    std::string bottleneck, limit_what;        // edge "a->b" and what it is
    double limit_gbps = 0;
    std::map<std::string, std::string> params;  // of the curve(s) used
    std::vector<std::string> rests_on;         // "key (file, revision)"
    std::vector<std::string> notes;
    // Under load (--while): the shared edge, its capacity and where it came from.
    std::string shared_edge, capacity_basis;
    double capacity_gbps = 0, alone_gbps = 0;
};

// One transfer alone. Throws UsageError for an unknown method, an ambiguous
// parameter set or a pair that can be neither found nor extrapolated.
// `exclude` drops curves whose key it contains (leave-one-out checks).
Answer predict_alone(const Model& model, const Graph* graph, const Query& q,
                     const std::vector<std::string>& exclude = {});

// The first transfer while the others run; answers for every transfer, the
// first first. Max-min fair share of every edge two or more cross the same way.
std::vector<Answer> predict_concurrent(const Model& model, const Graph* graph, const std::vector<Query>& transfers,
                                       const std::vector<std::string>& exclude_edges_from = {});

}  // namespace hwcomm::model
