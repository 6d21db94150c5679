// hwcomm list: each method with the endpoint pairs it applies to, then each
// pair with its methods; --all adds the pairs a method does not apply to.
#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "discover/discover.hpp"
#include "methods/group_characterizer.hpp"
#include "run/plan.hpp"

namespace hwcomm::cli {

namespace {

struct ListArgs {
    std::string input;
    bool all = false;
};

std::string params_text(const std::vector<ParamSet>& sets) {
    if (sets.empty() || (sets.size() == 1 && sets.front().empty())) return "";
    std::string out = "  [";
    for (std::size_t i = 0; i < sets.size(); ++i) {
        std::string ps;
        for (const auto& [k, v] : sets[i]) ps += (ps.empty() ? "" : ",") + k + "=" + v;
        out += (i ? " | " : "") + ps;
    }
    return out + "]";
}

// A concurrency method: its endpoint sets, each with the vertices its lanes join.
void list_group_method(const Graph& graph, const GroupCharacterizer& method, const MethodOptions& options,
                       bool all) {
    const auto sets = method.endpoint_sets(graph);
    std::size_t ok = 0;
    for (const auto& s : sets) ok += s.applicability.ok;
    std::cout << method.name() << ": " << method.description() << "\n";
    for (const auto& [name, doc] : method.parameter_docs()) std::cout << "  parameter " << name << ": " << doc << "\n";
    std::cout << "  applies to " << ok << " endpoint set(s)\n";
    for (const auto& s : sets) {
        if (!s.applicability.ok && !all) continue;
        std::cout << "    " << (s.applicability.ok ? "" : "not ") << s.src_id << " -> " << s.dst_id << "  {";
        for (std::size_t i = 0; i < s.vertices.size(); ++i) std::cout << (i ? " " : "") << s.vertices[i]->id;
        std::cout << "}";
        if (s.applicability.ok) std::cout << params_text(method.set_parameter_sets(graph, s, options));
        else std::cout << ": " << s.applicability.reason;
        if (!s.note.empty()) std::cout << "  (" << s.note << ")";
        std::cout << "\n";
    }
}

int list_command(const ListArgs& a) {
    DiscoverOptions dopts;
    dopts.input_xml = a.input;
    const Graph graph = discover_machine(dopts);
    const Registry registry = build_registry();
    const MethodOptions options;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> by_pair;
    std::vector<std::pair<std::string, std::string>> pair_order;
    for (const auto& method : registry.all()) {
        if (const auto* group = dynamic_cast<const GroupCharacterizer*>(method.get())) {
            list_group_method(graph, *group, options, a.all);
            continue;
        }
        const auto pairs = method_pairs(graph, *method);
        std::size_t ok = 0;
        for (const auto& p : pairs) ok += p.applicability.ok;
        std::cout << method->name() << ": " << method->description() << "\n";
        for (const auto& [name, doc] : method->parameter_docs()) std::cout << "  parameter " << name << ": " << doc << "\n";
        std::cout << "  applies to " << ok << " pair(s)\n";
        for (const auto& p : pairs) {
            if (!p.applicability.ok) continue;
            std::cout << "    " << p.src->id << " -> " << p.dst->id;
            std::cout << params_text(method->parameter_sets(graph, *p.src, *p.dst, options)) << "\n";
            const auto key = std::make_pair(p.src->id, p.dst->id);
            if (!by_pair.count(key)) pair_order.push_back(key);
            by_pair[key].push_back(method->name());
        }
        if (a.all) {
            for (const auto& p : pairs)
                if (!p.applicability.ok)
                    std::cout << "    not " << p.src->id << " -> " << p.dst->id << ": " << p.applicability.reason << "\n";
        }
    }
    std::cout << "\nby pair (src -> dst: methods)\n";
    for (const auto& key : pair_order) {
        std::cout << "  " << key.first << " -> " << key.second << ":";
        for (const auto& m : by_pair[key]) std::cout << " " << m;
        std::cout << "\n";
    }
    return 0;
}

}  // namespace

void add_list_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ListArgs>();
    auto* sub = app.add_subcommand("list", "each method and the endpoint pairs it applies to");
    sub->add_option("--input", args->input, "hwloc XML export of a machine instead of this one");
    sub->add_flag("--all,--verbose", args->all, "also list the pairs each method does not apply to, with the reason");
    sub->callback([&action, args] { action = [args] { return list_command(*args); }; });
}

}  // namespace hwcomm::cli
