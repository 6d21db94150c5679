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

std::vector<std::string> written_keys(const PlannedRecord& planned) {
    if (planned.measured_as == "covered") return {};
    if (planned.round.empty()) return {planned.key};
    std::vector<std::string> out;
    for (const PlannedRecord& lane : planned.round) out.push_back(lane.key);
    return out;
}

std::size_t written_record_count(const std::vector<PlannedRecord>& plan) {
    std::size_t n = 0;
    for (const PlannedRecord& p : plan) n += written_keys(p).size();
    return n;
}

std::vector<const Vertex*> PlannedRecord::vertices() const {
    if (set) return set->vertices;
    if (!round.empty()) {
        std::vector<const Vertex*> out;
        for (const PlannedRecord& lane : round)
            for (const Vertex* v : lane.vertices())
                if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
        return out;
    }
    std::vector<const Vertex*> out{src};
    if (dst != src) out.push_back(dst);
    return out;
}

std::vector<PlannedRecord> build_plan(const Graph& graph, const Registry& registry, const Filters& filters,
                                      const MethodOptions& options) {
    std::vector<PlannedRecord> plan;
    for (const auto& method : registry.all()) {
        if (const auto* group = dynamic_cast<const GroupCharacterizer*>(method.get())) {
            for (const auto& set : group->endpoint_sets(graph)) {
                if (!set.applicability.ok || !filters.accepts(method->name(), set.src_id, set.dst_id)) continue;
                for (auto& params : group->set_parameter_sets(graph, set, options)) {
                    PlannedRecord p{method.get(), nullptr, nullptr, params,
                                    record_key(method->name(), set.src_id, set.dst_id, params), set.src_id,
                                    set.dst_id, set};
                    plan.push_back(std::move(p));
                }
            }
            continue;
        }
        for (const auto& pair : method_pairs(graph, *method)) {
            if (!pair.applicability.ok || !filters.accepts(method->name(), pair.src->id, pair.dst->id)) continue;
            for (auto& params : method->parameter_sets(graph, *pair.src, *pair.dst, options))
                plan.push_back({method.get(), pair.src, pair.dst, params,
                                record_key(method->name(), pair.src->id, pair.dst->id, params), pair.src->id,
                                pair.dst->id, std::nullopt});
        }
    }
    return plan;
}

}  // namespace hwcomm
