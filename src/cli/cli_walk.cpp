#include "cli/cli_walk.hpp"

namespace hwcomm::cli {

namespace {

// CLI11 writes a set validator's description as {a,b,c}.
std::vector<std::string> choices_of(const std::string& type_name) {
    const auto open = type_name.find('{');
    const auto close = type_name.find('}', open);
    std::vector<std::string> out;
    if (open == std::string::npos || close == std::string::npos) return out;
    std::string item;
    for (char c : type_name.substr(open + 1, close - open - 1)) {
        if (c == ',') {
            out.push_back(item);
            item.clear();
        } else if (c != ' ') {
            item += c;
        }
    }
    if (!item.empty()) out.push_back(item);
    return out;
}

OptionDoc describe_option(const CLI::Option& o) {
    OptionDoc d;
    for (const auto& s : o.get_snames()) d.names.push_back("-" + s);
    for (const auto& l : o.get_lnames()) d.names.push_back("--" + l);
    if (d.names.empty()) d.positional_name = o.get_name(true);
    const std::string type_name = o.get_type_name();
    if (o.get_items_expected_max() > 0) {
        d.value_type = type_name.substr(0, type_name.find(':'));
        if (d.value_type.empty()) d.value_type = "VALUE";
        d.choices = choices_of(type_name);
    }
    d.description = o.get_description();
    d.group = o.get_group();
    d.required = o.get_required();
    d.repeatable = o.get_expected_max() > 1;
    return d;
}

CommandDoc describe_command(const CLI::App& app, const std::string& name) {
    CommandDoc doc;
    doc.name = name;
    doc.description = app.get_description();
    doc.footer = app.get_footer();
    for (const CLI::Option* o : app.get_options()) {
        if (o->get_group().empty()) continue;  // hidden (test hooks)
        doc.options.push_back(describe_option(*o));
    }
    return doc;
}

}  // namespace

std::vector<CommandDoc> describe_cli(const CLI::App& app) {
    std::vector<CommandDoc> out{describe_command(app, app.get_name().empty() ? "hwcomm" : app.get_name())};
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
        out.push_back(describe_command(*sub, sub->get_name()));
    return out;
}

}  // namespace hwcomm::cli
