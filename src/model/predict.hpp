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

// One edge a transfer shares with others (crossed the same way): what it
// carries for all of them, where that comes from and how sure it is.
struct SharedEdgeAnswer {
    std::string edge, what;
    std::string kinds;                  // "memcpy-h2d host_mem=pinned x4"
    std::size_t transfers = 0;          // n sharing it
    double demand_gbps = 0;             // what they reach alone, added (x)
    double stated_gbps = 0;             // 0: none stated
    std::string basis;                  // "fitted" | "unmeasured"
    // Carried together: A(x) and its interval (infinite: nothing bounds it).
    double carried_gbps = 0, carried_low = 0, carried_high = 0;
    std::string curve;                  // the curve and its parameters, or the bound used
    std::vector<SharedEdgeFit> curves;  // the fitted curves used (their observations left out)
    std::vector<std::size_t> counts;    // the lane counts it was measured at
    std::vector<std::string> records;   // the records it rests on
    bool extrapolated = false;          // beyond the largest count measured
    std::string range;                  // "between 2 and 4 transfers", ...
    std::vector<std::string> notes;
};

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
    // Under load (--while): every edge it shares, the one that limits it
    // (shared_edge, with what that edge carries and why), its rate alone.
    std::vector<SharedEdgeAnswer> shared;
    std::string shared_edge, capacity_basis;
    double capacity_gbps = 0, alone_gbps = 0;
};

// One transfer alone. Throws UsageError for an unknown method, an ambiguous
// parameter set or a pair that can be neither found nor extrapolated.
// `exclude` drops curves whose key it contains (leave-one-out checks).
Answer predict_alone(const Model& model, const Graph* graph, const Query& q,
                     const std::vector<std::string>& exclude = {});

// The first transfer while the others run; answers for every transfer, the
// first first. Max-min fair share of every edge two or more cross the same
// way, each carrying what its fitted curve gives for their demand (else its
// stated rate as a bound); the interval from the curves' and the transfers'
// own intervals.
std::vector<Answer> predict_concurrent(const Model& model, const Graph* graph, const std::vector<Query>& transfers);

// A set of transfers started together (a --transfers set, a concurrency
// record): each transfer's answer while the others run, and the set's
// aggregate as hwcomm measures it: the bytes of every transfer over the time
// of the slowest (the common window).
struct SetAnswer {
    std::vector<Answer> lanes;
    double bytes = 0;  // every transfer's bytes together
    double seconds = 0, seconds_low = 0, seconds_high = 0;
    double gbps = 0, gbps_low = 0, gbps_high = 0;
};
SetAnswer predict_set(const Model& model, const Graph* graph, const std::vector<Query>& transfers);

// What one shared edge carries for users given as (kind, rate alone).
SharedEdgeAnswer edge_load(const Model& model, const Graph& graph, const std::string& edge, std::size_t edge_index,
                           const std::vector<std::pair<std::string, double>>& users);

}  // namespace hwcomm::model
