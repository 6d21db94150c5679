#pragma once
// --filter KEY=PATTERN, KEY one of method, src, dst; PATTERN an exact name or
// a shell glob (fnmatch: *, ?, [..]). Filters on the same key are alternatives
// (OR); filters on different keys must all hold (AND). An exact name that does
// not exist, or a glob that matches nothing, is a UsageError.
#include <string>
#include <vector>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"

namespace hwcomm {

class Filters {
public:
    Filters() = default;
    // Parses and validates against the registry and the graph's vertex ids.
    Filters(const std::vector<std::string>& specs, const Registry& registry, const Graph& graph);

    bool accepts(const std::string& method, const std::string& src, const std::string& dst) const;
    const std::vector<std::string>& specs() const { return specs_; }

private:
    std::vector<std::string> specs_;
    std::vector<std::string> method_, src_, dst_;
};

}  // namespace hwcomm
