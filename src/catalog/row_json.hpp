#pragma once
// A method row as JSON, so a results file can carry the rows of the methods
// it measured (meta.methods) and a reader built without a method still knows
// what its records mean (docs/schema.md).
#include <nlohmann/json.hpp>

#include "catalog/method_catalog.hpp"
#include "core/results.hpp"

namespace hwcomm {

nlohmann::json row_to_json(const MethodRow& row);
// Throws UsageError naming the field when `j` is not a row this build can read.
MethodRow row_from_json(const nlohmann::json& j);

// The catalog to read a results file with: the built-in rows, and the rows of
// meta.methods whose names the built-in catalog lacks (a built-in row wins:
// files made before a row changed read as this build reads them). Throws
// UsageError for a malformed row of an unknown method.
MethodCatalog catalog_for(const nlohmann::json& results_meta);
// The same for several files read together; two files that describe one
// unknown method differently are a UsageError.
MethodCatalog catalog_for(const std::vector<const nlohmann::json*>& results_metas);

// meta.methods for the methods a file measures: their rows, in catalog order.
nlohmann::json rows_json(const MethodCatalog& catalog, const std::vector<std::string>& method_names);

// Sets file.meta.methods to the rows of the methods its records name, from
// `catalog` (the registry's: a test's fake methods included); rows the file
// already carries for methods `catalog` lacks (a resumed file of another
// build) stay.
void keep_method_rows(ResultsFile& file, const MethodCatalog& catalog);

}  // namespace hwcomm
