#include "cli/list_json.hpp"

#include "catalog/row_json.hpp"
#include "methods/group_characterizer.hpp"
#include "run/plan.hpp"

namespace hwcomm::cli {

namespace {

using json = nlohmann::json;

json param_sets_json(const std::vector<ParamSet>& sets) {
    json out = json::array();
    for (const auto& set : sets) {
        json one = json::object();
        for (const auto& [k, v] : set) one[k] = v;
        out.push_back(one);
    }
    return out;
}

json declarations(const Characterizer& method, const MethodRow& row) {
    json d{{"name", method.name()}, {"description", method.description()}, {"row", row_to_json(row)},
           {"kind", dynamic_cast<const GroupCharacterizer*>(&method) ? "endpoint_set" : "pair"},
           {"parameters", json::object()}, {"options", json::array()}, {"axes", json::array()}};
    for (const auto& [name, doc] : method.parameter_docs()) d["parameters"][name] = doc;
    for (const OptionSpec& o : method.options())
        d["options"].push_back({{"name", o.name}, {"type", to_string(o.type)}, {"default", o.default_value},
                                {"doc", o.doc}, {"choices", o.choices}});
    for (const AxisSpec& a : method.axes())
        d["axes"].push_back({{"name", a.name}, {"unit", a.unit}, {"values", a.values}, {"doc", a.doc}});
    return d;
}

}  // namespace

json list_as_json(const Graph& graph, const Registry& registry, bool all) {
    const MethodOptions options;
    json methods = json::array();
    for (const auto& method : registry.all()) {
        json m = declarations(*method, registry.row(*method));
        m["applies_to"] = json::array();
        if (all) m["not_applicable"] = json::array();
        if (const auto* group = dynamic_cast<const GroupCharacterizer*>(method.get())) {
            for (const auto& s : group->endpoint_sets(graph)) {
                json vertices = json::array();
                for (const Vertex* v : s.vertices) vertices.push_back(v->id);
                if (s.applicability.ok)
                    m["applies_to"].push_back({{"src", s.src_id}, {"dst", s.dst_id}, {"vertices", vertices},
                                               {"param_sets", param_sets_json(group->set_parameter_sets(graph, s, options))},
                                               {"note", s.note}});
                else if (all)
                    m["not_applicable"].push_back({{"src", s.src_id}, {"dst", s.dst_id}, {"reason", s.applicability.reason}});
            }
        } else {
            for (const auto& p : method_pairs(graph, *method)) {
                if (p.applicability.ok)
                    m["applies_to"].push_back({{"src", p.src->id}, {"dst", p.dst->id},
                                               {"param_sets", param_sets_json(method->parameter_sets(graph, *p.src, *p.dst, options))}});
                else if (all)
                    m["not_applicable"].push_back({{"src", p.src->id}, {"dst", p.dst->id}, {"reason", p.applicability.reason}});
            }
        }
        methods.push_back(m);
    }
    json notes = json::array();
    for (const auto& n : graph.notes) notes.push_back(n);
    return {{"schema", "hwcomm-list"}, {"version", "1.0"}, {"methods", methods}, {"notes", notes}};
}

}  // namespace hwcomm::cli
