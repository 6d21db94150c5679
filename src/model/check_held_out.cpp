// The checks a user's question under load needs: a lane count the model was
// never shown (leave-one-level-out) and a member of a shared edge's class
// never measured (leave-one-member-out). Each held-out set is dropped from the
// model as a whole (without_records) and predicted from what is left.
#include <algorithm>
#include <map>
#include <set>

#include "model/check_internal.hpp"

namespace hwcomm::model::check_detail {

namespace {

std::map<std::string, const Record*> records_by_key(const std::vector<NamedResults>& inputs) {
    std::map<std::string, const Record*> out;
    for (const NamedResults& in : inputs)
        for (const Record& r : in.file.records) out[r.key] = &r;
    return out;
}

void add_group(ErrorSummary& parent, ErrorSummary group) {
    summarize(group);
    parent.cases.insert(parent.cases.end(), group.cases.begin(), group.cases.end());
    parent.skipped += group.skipped;
    for (const auto& w : group.skip_reasons)
        if (parent.skip_reasons.size() < 5) parent.skip_reasons.push_back(w);
    parent.groups.push_back(std::move(group));
}

bool touches(const LaneSpec& l, const std::string& v) { return l.src == v || l.dst == v; }

}  // namespace

void leave_one_level_out(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs,
                         std::uint64_t min_bytes, ErrorSummary& levels) {
    const auto by_key = records_by_key(inputs);
    std::map<std::size_t, std::vector<std::string>> at_level;
    for (const auto& [key, n] : record_levels(m)) at_level[n].push_back(key);
    for (const auto& [n, keys] : at_level) {
        const Model rest = without_records(m, keys);
        ErrorSummary group;
        group.name = std::to_string(n) + " transfers (" + std::to_string(keys.size()) + " records held out)";
        for (const std::string& k : keys)
            if (const auto it = by_key.find(k); it != by_key.end())
                predict_record(rest, g, *it->second, min_bytes, [](const LaneSpec&) { return true; }, group, nullptr);
        add_group(levels, std::move(group));
    }
}

void leave_one_member_out(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs,
                          std::uint64_t min_bytes, ErrorSummary& members) {
    const auto by_key = records_by_key(inputs);
    std::map<std::string, std::set<std::string>> on_edge;  // shared edge -> records
    for (const SharedEdgeFit& e : m.shared_edges)
        for (const EdgeObservation& o : e.observations) on_edge[e.edge].insert(o.record);
    std::set<std::pair<std::string, std::set<std::string>>> done;  // (member, held records): once each
    for (const auto& [edge, keys] : on_edge) {
        // The class's members: the lanes' ends that not every lane shares
        // (numa0->gpu0..3 through the host bridge: gpu0..3).
        std::map<std::string, std::size_t> ends;
        std::size_t lanes = 0;
        for (const std::string& k : keys)
            if (const auto it = by_key.find(k); it != by_key.end())
                for (const LaneSpec& l : it->second->lanes) ++lanes, ++ends[l.src], ends[l.dst] += l.dst != l.src;
        for (const auto& [end_name, uses] : ends) {
            if (uses == lanes) continue;  // the common end
            const std::string& member = end_name;  // clang 14 cannot capture a structured binding
            std::set<std::string> held;
            for (const std::string& k : keys)
                if (const auto it = by_key.find(k); it != by_key.end())
                    for (const LaneSpec& l : it->second->lanes)
                        if (l.role != "load" && touches(l, member)) held.insert(k);
            if (held.empty() || !done.insert({member, held}).second) continue;
            std::vector<std::string> drop(held.begin(), held.end());
            for (const CurveModel& c : m.curves)
                if (c.single() && (c.src == member || c.dst == member)) drop.push_back(c.key);
            const Model rest = without_records(m, drop);
            ErrorSummary group;
            group.name = member + " on " + edge + " (" + std::to_string(held.size()) + " records held out)";
            for (const std::string& k : held)
                predict_record(rest, g, *by_key.at(k), min_bytes,
                               [&member](const LaneSpec& l) { return touches(l, member); }, group, nullptr);
            add_group(members, std::move(group));
        }
    }
}

}  // namespace hwcomm::model::check_detail
