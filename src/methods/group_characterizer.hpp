#pragma once
// A method whose records join sets of vertices rather than one ordered pair:
// the concurrency methods (every GPU to one NUMA node at once, every other GPU
// to one GPU, two transfers sharing a link...). The engine and `hwcomm list`
// plan them per endpoint set; the pair interface of Characterizer says "no".
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "methods/characterizer.hpp"

namespace hwcomm {

// The endpoints of one group record. Ids as written in the record: a vertex id
// ("numa0"), "gpu*" (every CUDA GPU), "gpu*-gpu1" (every CUDA GPU but gpu1) or
// "gpu0+gpu2" (exactly these).
struct EndpointSet {
    std::string src_id, dst_id;
    std::vector<const Vertex*> vertices;  // every vertex a lane starts or ends at
    std::string note;                     // why these (the shared edge of pairs-sharing-a-link)
    Applicability applicability;
    // The one link the set's transfers compete for, when that is what the set
    // measures (pairs-sharing-a-link: the bottleneck edge and the direction it
    // is crossed in). Sets of one class with the same shared link test the same
    // link the same way: the class plan confirms one of them (run/class_plan.hpp).
    std::string shared_link;
};

class GroupCharacterizer : public Characterizer {
public:
    Applicability applicable(const Graph&, const Vertex&, const Vertex&) const final {
        return Applicability::no("concurrency method: planned per endpoint set");
    }
    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex&, const Vertex&,
                                         const MethodOptions&) const final {
        return {};
    }
    std::unique_ptr<TransferSession> prepare(const Graph&, const Vertex&, const Vertex&, const ParamSet&,
                                             std::size_t, const MethodOptions&) const final;

    // Every set the method considers, applicable or not (with the reason).
    virtual std::vector<EndpointSet> endpoint_sets(const Graph& graph) const = 0;
    virtual std::vector<ParamSet> set_parameter_sets(const Graph& graph, const EndpointSet& set,
                                                     const MethodOptions& options) const = 0;
    // As Characterizer::prepare: throws MeasurementError when the set cannot be prepared.
    virtual std::unique_ptr<TransferSession> prepare_set(const Graph& graph, const EndpointSet& set,
                                                         const ParamSet& params, std::size_t max_bytes,
                                                         const MethodOptions& options) const = 0;
};

}  // namespace hwcomm
