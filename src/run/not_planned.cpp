#include "run/not_planned.hpp"

#include <map>
#include <set>

#include "catalog/method_names.hpp"
#include "methods/group_characterizer.hpp"

namespace hwcomm {

namespace {

// The most frequent reason of a method's pairs or sets, with how many share it.
std::string commonest(const std::map<std::string, std::size_t>& reasons, std::size_t total) {
    std::string best;
    std::size_t most = 0;
    for (const auto& [why, n] : reasons)
        if (n > most) best = why, most = n;
    if (reasons.size() == 1) return best;
    return best + " (" + std::to_string(most) + " of " + std::to_string(total) + "; " +
           std::to_string(reasons.size() - 1) + " other reason(s))";
}

std::string filters_text(const Filters& filters) {
    std::string out;
    for (const auto& f : filters.specs()) out += (out.empty() ? "--filter " : " --filter ") + f;
    return out;
}

std::string kinds_text(const std::vector<VertexKind>& kinds) {
    std::string out;
    for (VertexKind k : kinds) {
        if (!out.empty()) out += '|';  // appended in two steps: GCC 12's -Wrestrict misreads "x" + string
        out += to_string(k);
    }
    return out.empty() ? "endpoint" : out;
}

// Why a registered method got no record although the run's plan came from the methods.
std::string why_unplanned(const Graph& graph, const Characterizer& method, const Filters& filters) {
    std::map<std::string, std::size_t> reasons;
    std::size_t applicable = 0, total = 0;
    if (const auto* group = dynamic_cast<const GroupCharacterizer*>(&method)) {
        for (const EndpointSet& s : group->endpoint_sets(graph)) {
            ++total;
            if (s.applicability.ok) ++applicable;
            else ++reasons[s.applicability.reason];
        }
    } else {
        for (const PairApplicability& p : method_pairs(graph, method)) {
            ++total;
            if (p.applicability.ok) ++applicable;
            else ++reasons[p.applicability.reason];
        }
    }
    if (applicable > 0)
        return "filtered out by " + filters_text(filters) + " (" + std::to_string(applicable) +
               " applicable pair(s) or set(s) here)";
    if (total == 0) return "not applicable here: no " + kinds_text(method.src_kinds()) + " -> " +
                           kinds_text(method.dst_kinds()) + " pair on this machine";
    return "not applicable here: " + commonest(reasons, total);
}

std::string why_not_built(MethodBuild build) {
    switch (build) {
        case MethodBuild::Cuda: return "not in this build (configured without CUDA)";
        case MethodBuild::Mpi: return "measured between the ranks of hwcomm run --mpi only";
        default: return "";
    }
}

}  // namespace

std::vector<MethodWithoutRecords> methods_without_records(const Graph& graph, const Registry& registry,
                                                          const Filters& filters,
                                                          const std::vector<PlannedRecord>& plan, bool transfers_run) {
    std::set<std::string> planned;
    for (const PlannedRecord& p : plan) planned.insert(p.method->name());
    std::vector<MethodWithoutRecords> out;
    for (const MethodRow& row : registry.catalog().rows()) {
        if (planned.count(row.name)) continue;
        const Characterizer* method = registry.find(row.name);
        if (!method) {
            if (const std::string why = why_not_built(row.build); !why.empty()) out.push_back({row.name, why});
            continue;  // test-only methods say nothing
        }
        if (transfers_run)
            out.push_back({row.name, "a --transfers run measures the sets of its file only"});
        else
            out.push_back({row.name, why_unplanned(graph, *method, filters)});
    }
    return out;
}

nlohmann::json methods_without_records_json(const std::vector<MethodWithoutRecords>& list) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& m : list) j.push_back({{"method", m.method}, {"why", m.why}});
    return j;
}

}  // namespace hwcomm
