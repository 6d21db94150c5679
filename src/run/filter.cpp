#include "run/filter.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "core/error.hpp"

namespace hwcomm {

namespace {

bool glob_match(const std::string& pattern, const std::string& text) {
    return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool matches_any(const std::vector<std::string>& patterns, const std::string& text) {
    if (patterns.empty()) return true;
    return std::any_of(patterns.begin(), patterns.end(), [&](const auto& p) { return glob_match(p, text); });
}

void check_matches(const std::string& spec, const std::string& pattern, const std::vector<std::string>& names,
                   const char* what) {
    if (std::any_of(names.begin(), names.end(), [&](const auto& n) { return glob_match(pattern, n); })) return;
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("--filter " + spec + ": no " + what + " matches '" + pattern + "' (known: " + known + ")");
}

}  // namespace

Filters::Filters(const std::vector<std::string>& specs, const Registry& registry, const Graph& graph) : specs_(specs) {
    std::vector<std::string> methods, vertices;
    for (const auto& m : registry.all()) methods.push_back(m->name());
    for (const auto& v : graph.vertices()) vertices.push_back(v.id);
    for (const auto& spec : specs) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq + 1 == spec.size())
            throw UsageError("--filter '" + spec + "': expected KEY=PATTERN with KEY method, src or dst");
        const std::string key = spec.substr(0, eq), pattern = spec.substr(eq + 1);
        if (key == "method") {
            check_matches(spec, pattern, methods, "method");
            method_.push_back(pattern);
        } else if (key == "src" || key == "dst") {
            check_matches(spec, pattern, vertices, "endpoint");
            (key == "src" ? src_ : dst_).push_back(pattern);
        } else {
            throw UsageError("--filter '" + spec + "': unknown key '" + key + "' (use method, src or dst)");
        }
    }
}

bool Filters::accepts(const std::string& method, const std::string& src, const std::string& dst) const {
    return matches_any(method_, method) && matches_any(src_, src) && matches_any(dst_, dst);
}

}  // namespace hwcomm
