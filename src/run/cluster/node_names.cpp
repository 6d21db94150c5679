#include "run/cluster/node_names.hpp"

#include <map>

#include "core/error.hpp"

namespace hwcomm {

std::string expand_node_name(const std::string& pattern, int rank, const std::string& hostname) {
    if (pattern.empty()) return hostname.empty() ? "node" + std::to_string(rank) : hostname;
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            out += pattern[i];
            continue;
        }
        const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
        if (next == 'r') out += std::to_string(rank);
        else if (next == 'h') out += hostname;
        else if (next == '%') out += '%';
        else throw UsageError("--node-name '" + pattern + "': use %r (rank), %h (hostname) or %%");
        ++i;
    }
    if (out.empty() || out.find_first_of(": \t\n/") != std::string::npos)
        throw UsageError("--node-name '" + pattern + "' gives '" + out + "': a node name must be non-empty, without ':', '/' or spaces");
    return out;
}

std::vector<std::string> unique_node_names(const std::vector<std::string>& names) {
    std::map<std::string, int> seen;
    for (const auto& n : names) ++seen[n];
    std::vector<std::string> out;
    for (std::size_t r = 0; r < names.size(); ++r)
        out.push_back(seen[names[r]] > 1 ? names[r] + "-r" + std::to_string(r) : names[r]);
    return out;
}

}  // namespace hwcomm
