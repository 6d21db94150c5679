// The class map's JSON form: `hwcomm topo --json` (key "classes") and the
// results file (docs/schema.md, "link_classes").
#include <algorithm>
#include <set>

#include "classes/link_classes.hpp"
#include "core/error.hpp"

namespace hwcomm {

namespace {

[[noreturn]] void malformed(const std::string& why) { throw UsageError("malformed link classes: " + why); }

const nlohmann::json& field(const nlohmann::json& object, const char* key, nlohmann::json::value_t type,
                            const std::string& where) {
    auto it = object.find(key);
    if (it == object.end()) malformed(where + " has no '" + key + "'");
    const bool ok = type == nlohmann::json::value_t::boolean ? it->is_boolean()
                  : type == nlohmann::json::value_t::string  ? it->is_string()
                                                             : it->is_array();
    if (!ok) malformed(where + ": '" + key + "' has the wrong type");
    return *it;
}

std::string bounded(const std::string& text) { return text.size() > 60 ? text.substr(0, 60) + "..." : text; }

}  // namespace

nlohmann::json class_map_to_json(const ClassMap& map) {
    nlohmann::json classes = nlohmann::json::array();
    for (const LinkClass& c : map.classes) {
        nlohmann::json members = nlohmann::json::array();
        for (const ClassMember& m : c.members) members.push_back({m.src, m.dst});
        classes.push_back({{"id", c.id},
                           {"description", c.description},
                           {"signature", c.signature},
                           {"rates_known", c.rates_known},
                           {"representative", {c.members.front().src, c.members.front().dst}},
                           {"members", std::move(members)}});
    }
    return {{"classes", std::move(classes)}, {"notes", map.notes}};
}

ClassMap class_map_from_json(const nlohmann::json& j) {
    using value_t = nlohmann::json::value_t;
    if (!j.is_object()) malformed("not an object");
    ClassMap map;
    std::set<std::string> ids;
    std::set<ClassMember> all_members;
    for (const auto& c : field(j, "classes", value_t::array, "the class map")) {
        if (!c.is_object()) malformed("a class is not an object");
        LinkClass lc;
        lc.id = field(c, "id", value_t::string, "a class").get<std::string>();
        const std::string where = "class '" + bounded(lc.id) + "'";
        if (lc.id.empty() || !ids.insert(lc.id).second) malformed(where + ": empty or repeated id");
        lc.signature = field(c, "signature", value_t::string, where).get<std::string>();
        lc.description = field(c, "description", value_t::string, where).get<std::string>();
        lc.rates_known = field(c, "rates_known", value_t::boolean, where).get<bool>();
        for (const auto& m : field(c, "members", value_t::array, where)) {
            if (!m.is_array() || m.size() != 2 || !m[0].is_string() || !m[1].is_string())
                malformed(where + ": a member is not [src, dst]");
            ClassMember member{m[0].get<std::string>(), m[1].get<std::string>()};
            if (!all_members.insert(member).second) malformed(where + ": member in two classes or twice");
            lc.members.push_back(std::move(member));
        }
        if (lc.members.empty()) malformed(where + " has no members");
        std::sort(lc.members.begin(), lc.members.end(),
                  [](const ClassMember& x, const ClassMember& y) { return natural_less(x, y); });
        map.classes.push_back(std::move(lc));
    }
    if (auto it = j.find("notes"); it != j.end()) {
        if (!it->is_array()) malformed("'notes' is not an array");
        for (const auto& n : *it) {
            if (!n.is_string()) malformed("a note is not a string");
            map.notes.push_back(n.get<std::string>());
        }
    }
    return map;
}

}  // namespace hwcomm
