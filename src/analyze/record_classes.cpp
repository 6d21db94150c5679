#include "analyze/record_classes.hpp"

#include "analyze/record_facts.hpp"
#include "core/error.hpp"

namespace hwcomm::analyze {

ClassMap record_classes(const ResultsFile& file, const Graph* topology, const std::string& name) {
    std::vector<ClassMember> members;
    for (const Record& r : file.records) members.push_back(member_of(r));
    if (!file.link_classes.is_null()) {
        ClassMap stored;
        try {
            stored = class_map_from_json(file.link_classes);
        } catch (const UsageError& e) {
            throw UsageError(name + ": " + e.what());
        }
        bool covers = true;
        for (const ClassMember& m : members) covers = covers && stored.find(m);
        if (covers || !topology) return stored;
    }
    if (!topology) return {};
    return classify(*topology, members);
}

std::map<std::string, std::string> comparable_params(const Record& r) {
    std::map<std::string, std::string> out = r.params;
    const auto numa = out.find("numa");
    if (numa == out.end()) return out;
    for (const std::string& end : {r.src, r.dst})
        if (is_numa_id(end) && std::to_string(id_index(end)) == numa->second) {
            out.erase(numa);
            break;
        }
    return out;
}

std::string measured_as(const Record& r) {
    // Written by the class-reduced plan (issue 21); files from before it measured every record in full.
    return r.measured_as.empty() ? "full" : r.measured_as;
}

std::string measured_as_text(const Record& r) {
    if (r.measured_as == "confirmed" && r.context.is_object() && r.context.contains("round"))
        return "confirmed in a round (a lane among pairs measured at once)";
    return measured_as(r);
}

}  // namespace hwcomm::analyze
