#include "report/topo_classes.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace hwcomm {

namespace {

constexpr std::size_t kWidth = 118;  // the tree's own limit is 120 columns

// Words joined by `sep`, the first line after `first`, the next ones indented by `indent`.
void wrapped(std::ostream& out, const std::string& first, const std::vector<std::string>& words, const std::string& sep,
             const std::string& indent) {
    std::string line = first;
    bool empty = true;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string piece = words[i] + (i + 1 < words.size() ? sep : "");
        if (!empty && line.size() + piece.size() > kWidth) {
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out << line << "\n";
            line = indent;
        }
        line += piece;
        empty = false;
    }
    out << line << "\n";
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

}  // namespace

void print_link_classes(const ClassMap& map, std::ostream& out, std::size_t shown) {
    out << "Link classes (pairs whose paths cross the same kinds of edges at the same stated rates, with the same\n"
           "NUMA relation and switch sharing; the first member represents the class):\n";
    for (const LinkClass& c : map.classes) {
        const std::string head = "  " + c.id + "  " + std::to_string(c.members.size()) +
                                 (c.members.size() == 1 ? " member  " : " members  ");
        wrapped(out, head,
                split_words(c.description + (c.rates_known ? "" : " [rates unknown: grouped by structure]")), " ",
                "      ");
        std::vector<std::string> members;
        for (std::size_t i = 0; i < c.members.size() && i < shown; ++i)
            members.push_back(c.members[i].src + "->" + c.members[i].dst);
        if (c.members.size() > shown)
            members.push_back("... (" + std::to_string(c.members.size() - shown) + " more; --json lists all)");
        wrapped(out, "      ", members, ", ", "      ");
    }
    for (const std::string& n : map.notes) wrapped(out, "  note: ", split_words(n), " ", "        ");
}

}  // namespace hwcomm
