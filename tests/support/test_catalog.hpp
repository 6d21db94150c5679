#pragma once
// Rows for a test's own fake methods: a Registry refuses a method without a
// row, so a test registers its fakes against builtin_catalog().with(rows).
#include <string>
#include <vector>

#include "catalog/method_catalog.hpp"

namespace hwcomm::test {

inline MethodRow fake_row(std::string name, std::vector<VertexKind> src = {VertexKind::NumaNode},
                          std::vector<VertexKind> dst = {VertexKind::NumaNode}) {
    MethodRow r{.name = std::move(name), .family = MethodFamily::CpuMemory};
    r.src_kinds = std::move(src);
    r.dst_kinds = std::move(dst);
    return r;
}

// The built-in catalog and a row (NUMA node to NUMA node) for each fake name.
inline MethodCatalog catalog_with(const std::vector<std::string>& fake_names) {
    std::vector<MethodRow> rows;
    for (const std::string& n : fake_names) rows.push_back(fake_row(n));
    return builtin_catalog().with(std::move(rows));
}

}  // namespace hwcomm::test
