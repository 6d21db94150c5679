#include "run/plan.hpp"

#include <algorithm>

#include "core/results.hpp"

namespace hwcomm {

namespace {

std::vector<const Vertex*> vertices_of(const Graph& graph, const std::vector<VertexKind>& kinds) {
    std::vector<const Vertex*> out;
    for (const auto& v : graph.vertices())
        if (std::find(kinds.begin(), kinds.end(), v.kind) != kinds.end()) out.push_back(&v);
    return out;
}

}  // namespace

std::vector<PairApplicability> method_pairs(const Graph& graph, const Characterizer& method) {
    std::vector<PairApplicability> out;
    for (const Vertex* s : vertices_of(graph, method.src_kinds()))
        for (const Vertex* d : vertices_of(graph, method.dst_kinds()))
            out.push_back({s, d, method.applicable(graph, *s, *d)});
    return out;
}

std::vector<PlannedRecord> build_plan(const Graph& graph, const Registry& registry, const Filters& filters,
                                      const MethodOptions& options) {
    std::vector<PlannedRecord> plan;
    for (const auto& method : registry.all()) {
        for (const auto& pair : method_pairs(graph, *method)) {
            if (!pair.applicability.ok || !filters.accepts(method->name(), pair.src->id, pair.dst->id)) continue;
            for (auto& params : method->parameter_sets(graph, *pair.src, *pair.dst, options))
                plan.push_back({method.get(), pair.src, pair.dst, params,
                                record_key(method->name(), pair.src->id, pair.dst->id, params)});
        }
    }
    return plan;
}

}  // namespace hwcomm
