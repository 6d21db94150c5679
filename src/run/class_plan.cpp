#include "run/class_plan.hpp"

#include "run/confirmation_rounds.hpp"
#include "run/size_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hwcomm {

namespace {

// Each member's class and its position there (the representative first).
struct MemberIndex {
    std::map<ClassMember, std::pair<const LinkClass*, std::size_t>> of;
    explicit MemberIndex(const ClassMap& classes) {
        for (const LinkClass& c : classes.classes)
            for (std::size_t i = 0; i < c.members.size(); ++i) of.emplace(c.members[i], std::make_pair(&c, i));
    }
    const LinkClass* class_of(const ClassMember& m) const {
        const auto it = of.find(m);
        return it == of.end() ? nullptr : it->second.first;
    }
    std::size_t rank(const ClassMember& m) const { return of.at(m).second; }
};

bool is_numa_index(const Vertex* v, const std::string& index) {
    return v && v->kind == VertexKind::NumaNode && std::to_string(v->os_index) == index;
}

}  // namespace

std::vector<ClassMember> plan_members(const std::vector<PlannedRecord>& plan) {
    std::set<ClassMember> seen;
    std::vector<ClassMember> out;
    for (const PlannedRecord& p : plan)
        if (seen.insert({p.src_id, p.dst_id}).second) out.push_back({p.src_id, p.dst_id});
    return out;
}

bool representatives_only(const PlannedRecord& record) {
    const PlanTraits& traits = plan_traits(record.method->name());
    if (traits.representatives_only) return true;
    for (const auto& [key, value] : traits.representatives_only_when)
        if (const auto it = record.params.find(key); it != record.params.end() && it->second == value) return true;
    return false;
}

std::string comparable_params(const PlannedRecord& record) {
    std::string out;
    for (const auto& [k, v] : record.params) {
        if (k == "numa" && (is_numa_index(record.src, v) || is_numa_index(record.dst, v))) continue;
        out += (out.empty() ? "" : ",") + k + "=" + v;
    }
    return out;
}

std::vector<PlannedRecord> apply_classes(std::vector<PlannedRecord> plan, const ClassMap& classes, const Graph& graph,
                                         bool exhaustive, std::vector<std::string>* notes, bool rounds_allowed) {
    // A plan classed before: its rounds back to their members.
    std::vector<PlannedRecord> flat;
    for (PlannedRecord& p : plan) {
        if (p.round.empty()) flat.push_back(std::move(p));
        for (PlannedRecord& lane : p.round) flat.push_back(std::move(lane));
    }
    plan = std::move(flat);
    // Records of one method, comparable parameters and class: one group.
    const MemberIndex index(classes);
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        PlannedRecord& p = plan[i];
        p.measured_as = "full";
        p.representative_key.clear();
        const LinkClass* c = index.class_of({p.src_id, p.dst_id});
        p.class_id = c ? c->id : "";
        if (c && !exhaustive) groups[p.method->name() + "|" + c->id + "|" + comparable_params(p)].push_back(i);
    }
    if (exhaustive) return plan;
    std::vector<bool> dropped(plan.size(), false);
    std::map<std::string, std::size_t> covered_by_method;  // sets left out: their link is confirmed by another
    for (auto& [key, members] : groups) {
        std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
            return index.rank({plan[a].src_id, plan[a].dst_id}) < index.rank({plan[b].src_id, plan[b].dst_id});
        });
        const PlannedRecord& rep = plan[members.front()];
        const std::string rep_key = rep.key;
        const ClassMember reverse{rep.dst_id, rep.src_id};
        std::set<std::string> links_tested;
        if (rep.set && !rep.set->shared_link.empty()) links_tested.insert(rep.set->shared_link);
        for (std::size_t k = 1; k < members.size(); ++k) {
            PlannedRecord& p = plan[members[k]];
            if (ClassMember{p.src_id, p.dst_id} == reverse && reverse.src != reverse.dst) continue;  // both directions
            p.measured_as = "confirmed";
            p.representative_key = rep_key;
            if (representatives_only(p)) {
                dropped[members[k]] = true;
            } else if (p.set && !p.set->shared_link.empty() && !links_tested.insert(p.set->shared_link).second) {
                dropped[members[k]] = true;
                ++covered_by_method[p.method->name()];
            }
        }
    }
    // Pair confirmations in rounds, or only those that cover the class's links.
    std::map<std::size_t, PlannedRecord> round_at;  // a round takes its first member's place
    std::vector<bool> in_round(plan.size(), false);
    std::map<std::string, std::pair<std::size_t, std::size_t>> rounds_by_method;  // members, rounds
    std::map<std::string, std::size_t> cover_left_by_method;
    for (const auto& [key, members] : groups) {
        std::vector<std::size_t> pairs;
        std::set<DirectedLink> measured;
        for (const std::size_t i : members) {
            const PlannedRecord& p = plan[i];
            if (!p.src || !p.dst || p.set || p.src == p.dst) continue;
            if (p.measured_as == "full") {
                for (const DirectedLink& l : route_links(graph, *p.src, *p.dst, p.params)) measured.insert(l);
            } else if (!dropped[i]) {
                pairs.push_back(i);
            }
        }
        if (pairs.size() < 2) continue;
        std::vector<const PlannedRecord*> of;
        for (const std::size_t i : pairs) of.push_back(&plan[i]);
        const PlannedRecord& first = *of.front();
        const bool gpus = std::all_of(of.begin(), of.end(), [](const PlannedRecord* p) {
            return p->src->kind == VertexKind::Gpu && p->dst->kind == VertexKind::Gpu;
        });
        if (rounds_allowed && gpus && first.method->measures_rounds(first.params)) {
            const auto rounds = plan_rounds(graph, of, first.method->rounds_one_way(first.params));
            for (const auto& round : rounds) {
                if (round.size() < 2) continue;  // a lone pair is confirmed alone
                std::vector<PlannedRecord> lanes;
                for (const std::size_t k : round) {
                    lanes.push_back(plan[pairs[k]]);
                    in_round[pairs[k]] = true;
                }
                round_at.emplace(pairs[round.front()], make_round(lanes, round_at.size() + 1));
                rounds_by_method[first.method->name()].first += round.size();
                ++rounds_by_method[first.method->name()].second;
            }
            continue;
        }
        const std::vector<bool> chosen = covering_members(graph, of, measured);
        for (std::size_t k = 0; k < pairs.size(); ++k)
            if (!chosen[k]) {
                plan[pairs[k]].measured_as = "covered";
                ++cover_left_by_method[first.method->name()];
            }
    }
    if (notes) {
        for (const auto& [method, counts] : rounds_by_method)
            notes->push_back(method + ": " + std::to_string(counts.first) + " confirmation(s) in " +
                             std::to_string(counts.second) +
                             " round(s) of pairs measured at once over links they do not share");
        for (const auto& [method, n] : cover_left_by_method)
            notes->push_back(method + ": " + std::to_string(n) +
                             " pair(s) covered: every link they cross is confirmed by another pair of their class; "
                             "measured only when a record of the pair is promoted");
    }
    if (notes)
        for (const auto& [method, n] : covered_by_method)
            notes->push_back(method + ": " + std::to_string(n) +
                             " set(s) not measured: another set of their class competes for the same link and is "
                             "measured (--exhaustive measures every set)");
    std::vector<PlannedRecord> out;
    static const char* const kPasses[] = {"full", "confirmed", "covered"};
    for (const char* pass : kPasses)
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if (dropped[i] || plan[i].measured_as != pass) continue;
            if (const auto round = round_at.find(i); round != round_at.end()) out.push_back(std::move(round->second));
            else if (!in_round[i]) out.push_back(plan[i]);
        }
    return out;
}

}  // namespace hwcomm
