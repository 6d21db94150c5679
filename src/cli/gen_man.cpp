#include "cli/gen_man.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace hwcomm::cli {

namespace {

// roff: backslashes and hyphens escaped; a line must not start with . or '.
std::string esc(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
    }
    return out;
}

std::string line_safe(const std::string& line) {
    const std::string e = esc(line);
    return (!e.empty() && (e[0] == '.' || e[0] == '\'')) ? "\\&" + e : e;
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
    return s;
}

std::string page_name(const CommandDoc& c) { return c.name == "hwcomm" ? "hwcomm" : "hwcomm-" + c.name; }

void header(std::ostream& out, const CommandDoc& c, const std::string& version) {
    // No date: the same sources give the same page (reproducible packages).
    out << ".TH " << esc(upper(page_name(c))) << " 1 \"\" \"hwcomm " << esc(version) << "\" \"hwcomm manual\"\n"
        << ".SH NAME\n" << esc(page_name(c)) << " \\- " << esc(c.description) << "\n";
}

void option_item(std::ostream& out, const OptionDoc& o) {
    out << ".TP\n";
    if (!o.positional_name.empty()) {
        out << ".I " << esc(o.positional_name) << (o.repeatable ? "..." : "") << "\n";
    } else {
        std::string names;
        for (const auto& n : o.names) names += (names.empty() ? "" : ", ") + std::string("\\fB") + esc(n) + "\\fR";
        if (o.takes_value()) names += " \\fI" + esc(o.value_type) + "\\fR";
        out << names << "\n";
    }
    std::string text = o.description;
    if (!o.choices.empty()) {
        std::string list;
        for (const auto& c : o.choices) list += (list.empty() ? "" : ", ") + c;
        text += " (one of: " + list + ")";
    }
    if (o.required) text += " (required)";
    if (o.repeatable && !o.names.empty()) text += " (repeatable)";
    out << line_safe(text) << "\n";
}

void options_sections(std::ostream& out, const CommandDoc& c) {
    std::vector<std::string> groups;
    for (const auto& o : c.options)
        if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
    for (const auto& g : groups) {
        out << ".SH \"" << esc(upper(g == "Options" ? "options" : g)) << "\"\n";
        for (const auto& o : c.options)
            if (o.group == g) option_item(out, o);
    }
}

// The footer (help_footers.cpp) holds the example and exit codes: shown as typed.
void footer_section(std::ostream& out, const CommandDoc& c) {
    if (c.footer.empty()) return;
    out << ".SH \"EXAMPLES AND EXIT STATUS\"\n.nf\n";
    std::istringstream lines(c.footer);
    for (std::string line; std::getline(lines, line);) out << line_safe(line) << "\n";
    out << ".fi\n";
}

std::string subcommand_page(const CommandDoc& c, const std::string& version) {
    std::ostringstream out;
    header(out, c, version);
    out << ".SH SYNOPSIS\n.B hwcomm " << esc(c.name) << "\n";
    for (const auto& o : c.options)
        if (!o.positional_name.empty()) out << ".I " << esc(o.positional_name) << (o.repeatable ? "..." : "") << "\n";
    out << "[\\fIOPTIONS\\fR]\n.SH DESCRIPTION\n" << line_safe(c.description) << ".\n";
    options_sections(out, c);
    footer_section(out, c);
    out << ".SH \"SEE ALSO\"\n.BR hwcomm (1)\n";
    return out.str();
}

std::string main_page(const std::vector<CommandDoc>& commands, const std::string& version) {
    std::ostringstream out;
    const CommandDoc& top = commands.front();
    header(out, top, version);
    out << ".SH SYNOPSIS\n.B hwcomm\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.br\n.B hwcomm \\-\\-version\n"
        << ".SH DESCRIPTION\n" << line_safe(top.description) << ".\nEach command has its own page, "
        << "\\fBhwcomm\\-\\fICOMMAND\\fR(1), and \\fBhwcomm \\fICOMMAND\\fB \\-\\-help\\fR.\n.SH COMMANDS\n";
    for (std::size_t i = 1; i < commands.size(); ++i)
        out << ".TP\n.B " << esc(commands[i].name) << "\n" << line_safe(commands[i].description) << "\n";
    options_sections(out, top);
    footer_section(out, top);
    out << ".SH \"SEE ALSO\"\n";
    for (std::size_t i = 1; i < commands.size(); ++i)
        out << ".BR " << esc(page_name(commands[i])) << " (1)" << (i + 1 < commands.size() ? "," : "") << "\n";
    return out.str();
}

}  // namespace

std::map<std::string, std::string> man_pages(const std::vector<CommandDoc>& commands, const std::string& version) {
    std::map<std::string, std::string> pages;
    pages["hwcomm.1"] = main_page(commands, version);
    for (std::size_t i = 1; i < commands.size(); ++i)
        pages[page_name(commands[i]) + ".1"] = subcommand_page(commands[i], version);
    return pages;
}

}  // namespace hwcomm::cli
