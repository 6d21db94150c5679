#include "run/class_plan.hpp"

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

std::vector<PlannedRecord> apply_classes(std::vector<PlannedRecord> plan, const ClassMap& classes, bool exhaustive,
                                         std::vector<std::string>* notes) {
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
    if (notes)
        for (const auto& [method, n] : covered_by_method)
            notes->push_back(method + ": " + std::to_string(n) +
                             " set(s) not measured: another set of their class competes for the same link and is "
                             "measured (--exhaustive measures every set)");
    std::vector<PlannedRecord> out;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < plan.size(); ++i)
            if (!dropped[i] && (plan[i].measured_as == "full") == (pass == 0)) out.push_back(plan[i]);
    return out;
}

}  // namespace hwcomm
