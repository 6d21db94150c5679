// hwcomm list: each method with the endpoint pairs it applies to, then each
// pair with its methods; --all adds the pairs a method does not apply to;
// --json gives the same to programs. On a terminal long lines are cut to fit.
#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>
#include <sstream>
#include <map>
#include <memory>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "cli/list_json.hpp"
#include "cli/transfer_sets_cli.hpp"
#include "methods/transfers/transfer_set_method.hpp"
#include "discover/discover.hpp"
#include "methods/group_characterizer.hpp"
#include "run/plan.hpp"

namespace hwcomm::cli {

namespace {

struct ListArgs {
    std::string input;
    bool all = false;
    bool json = false;
    std::string transfers;  // --transfers FILE|preset: the sets resolved on the machine, instead of the methods
};

// The terminal's width when standard output is one, else 0.
std::size_t terminal_columns() {
    if (isatty(STDOUT_FILENO) != 1) return 0;
    winsize size{};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) return size.ws_col;
    return 80;
}

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

// The options and axes a method declares.
void print_declarations(std::ostream& out, const Characterizer& method) {
    for (const OptionSpec& o : method.options())
        out << "  option --" << o.name << " (" << to_string(o.type)
                  << (o.default_value.empty() ? "" : ", default " + o.default_value) << "): " << o.doc << "\n";
    for (const AxisSpec& axis : method.axes()) {
        out << "  axis " << axis.name << (axis.unit.empty() ? "" : " (" + axis.unit + ")") << ":";
        for (const auto& v : axis.values) out << " " << (v.is_string() ? v.get<std::string>() : v.dump());
        out << (axis.doc.empty() ? "" : "  " + axis.doc) << "\n";
    }
}

// A concurrency method: its endpoint sets, each with the vertices its lanes join.
void list_group_method(std::ostream& out, const Graph& graph, const GroupCharacterizer& method, const MethodOptions& options,
                       bool all) {
    const auto sets = method.endpoint_sets(graph);
    std::size_t ok = 0;
    for (const auto& s : sets) ok += s.applicability.ok;
    out << method.name() << ": " << method.description() << "\n";
    for (const auto& [name, doc] : method.parameter_docs()) out << "  parameter " << name << ": " << doc << "\n";
    print_declarations(out, method);
    out << "  applies to " << ok << " endpoint set(s)\n";
    for (const auto& s : sets) {
        if (!s.applicability.ok && !all) continue;
        out << "    " << (s.applicability.ok ? "" : "not ") << s.src_id << " -> " << s.dst_id << "  {";
        for (std::size_t i = 0; i < s.vertices.size(); ++i) out << (i ? " " : "") << s.vertices[i]->id;
        out << "}";
        if (s.applicability.ok) out << params_text(method.set_parameter_sets(graph, s, options));
        else out << ": " << s.applicability.reason;
        if (!s.note.empty()) out << "  (" << s.note << ")";
        out << "\n";
    }
}

void list_text(std::ostream& out, const ListArgs& a, const Graph& graph) {
    for (const Vertex* gpu : graph.of_kind(VertexKind::Gpu))
        if (gpu->attrs.count("cuda_ordinal_inferred")) {
            out << "note: CUDA ordinals inferred from PCI bus id order (" << a.input << " has no CUDA facts)\n";
            break;
        }
    const Registry registry = build_registry();
    const MethodOptions options;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> by_pair;
    std::vector<std::pair<std::string, std::string>> pair_order;
    for (const auto& method : registry.all()) {
        if (const auto* group = dynamic_cast<const GroupCharacterizer*>(method.get())) {
            list_group_method(out, graph, *group, options, a.all);
            continue;
        }
        const auto pairs = method_pairs(graph, *method);
        std::size_t ok = 0;
        for (const auto& p : pairs) ok += p.applicability.ok;
        out << method->name() << ": " << method->description() << "\n";
        for (const auto& [name, doc] : method->parameter_docs()) out << "  parameter " << name << ": " << doc << "\n";
        print_declarations(out, *method);
        out << "  applies to " << ok << " pair(s)\n";
        for (const auto& p : pairs) {
            if (!p.applicability.ok) continue;
            out << "    " << p.src->id << " -> " << p.dst->id;
            out << params_text(method->parameter_sets(graph, *p.src, *p.dst, options)) << "\n";
            const auto key = std::make_pair(p.src->id, p.dst->id);
            if (!by_pair.count(key)) pair_order.push_back(key);
            by_pair[key].push_back(method->name());
        }
        if (a.all) {
            for (const auto& p : pairs)
                if (!p.applicability.ok)
                    out << "    not " << p.src->id << " -> " << p.dst->id << ": " << p.applicability.reason << "\n";
        }
    }
    out << "\nby pair (src -> dst: methods)\n";
    for (const auto& key : pair_order) {
        out << "  " << key.first << " -> " << key.second << ":";
        for (const auto& m : by_pair[key]) out << " " << m;
        out << "\n";
    }
}

int list_command(const ListArgs& a) {
    DiscoverOptions dopts;
    dopts.input_xml = a.input;
    const Graph graph = discover_machine(dopts);
    if (!a.transfers.empty()) {
        const Registry registry = build_registry();
        const TransferSetMethod* method = find_transfer_set_method(registry);
        if (!method) throw UsageError("--transfers: this build has no transfer-set method");
        const TransferSetFile file = load_transfer_sets(a.transfers, graph);
        // A machine described by a file: the memory it states; this one: the memory free now.
        const auto sets = resolve_transfer_sets(graph, file, a.input.empty() ? method->live_machine()
                                                                             : method->described_machine());
        if (a.json) std::cout << resolved_sets_json(file, sets).dump(1) << "\n";
        else std::cout << resolved_sets_text(file, sets);
        return 0;
    }
    if (a.json) {
        std::cout << list_as_json(graph, build_registry(), a.all).dump(1) << "\n";
        return 0;
    }
    std::ostringstream text;
    list_text(text, a, graph);
    const std::size_t width = terminal_columns();
    if (width == 0) {  // a file or pipe gets every line whole
        std::cout << text.str();
        return 0;
    }
    std::istringstream lines(text.str());
    bool cut = false;
    for (std::string line; std::getline(lines, line);) {
        cut = cut || line.size() > width;
        std::cout << (line.size() > width ? line.substr(0, width - 3) + "..." : line) << "\n";
    }
    if (cut) std::cout << "(long lines cut to the terminal's width: hwcomm list | less -S shows them whole; --json for programs)\n";
    return 0;
}

}  // namespace

void add_list_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<ListArgs>();
    auto* sub = app.add_subcommand("list", "each method and the endpoint pairs it applies to");
    sub->add_option("--input", args->input, "hwloc XML export of a machine instead of this one");
    sub->add_flag("--all,--verbose", args->all, "also list the pairs each method does not apply to, with the reason");
    sub->add_flag("--json", args->json, "the same as JSON for programs (schema hwcomm-list: methods, their pairs, parameter sets)");
    sub->add_option("--transfers", args->transfers,
                    "check a transfer-set FILE (or preset:NAME) against the machine and show its sets and lanes, as "
                    "hwcomm run --transfers would measure them (docs/transfers.md)");
    sub->callback([&action, args] { action = [args] { return list_command(*args); }; });
}

}  // namespace hwcomm::cli
