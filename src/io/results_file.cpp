#include "io/results_file.hpp"

#include "core/error.hpp"
#include "core/json_parse.hpp"

#include "catalog/row_json.hpp"
#include "io/results_json.hpp"
#include "platform/atomic_file.hpp"

namespace hwcomm {

ResultsFile load_results_file(const std::string& path) {
    // The guarded input path: a regular file only (a named pipe must not block
    // us), capped on disk and inflated, then the JSON with a nesting limit.
    const nlohmann::json doc = parse_json_file(path, "results file");
    // Whatever the document holds is bad input, never an internal error.
    try {
        ResultsFile file = results_from_json(doc);
        (void)catalog_for(file.meta);  // a row of meta.methods every reader can take
        return file;
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(path + ": " + json_error_text(e));
    } catch (const std::exception& e) {
        throw UsageError(path + ": " + e.what());
    }
}

void save_results(const std::string& path, const ResultsFile& file) {
    write_file_atomically(path, results_to_json(file).dump(1) + "\n");
}

}  // namespace hwcomm
