// The Comm|Scope / Google Benchmark importer (issue 25: wrong field types
// were internal errors, a 100,000-level "context" crashed writing the output):
// the document through the depth-limited parser, add_document, finish, and
// the results file written. Nothing in it may throw but the parser's
// documented InputError; the importer itself skips and counts bad input.
#include <cstdint>
#include <string_view>

#include "core/input_file.hpp"
#include "core/json_parse.hpp"
#include "import/commscope.hpp"
#include "io/results_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hwcomm;
    nlohmann::json doc;
    try {
        doc = parse_json_text(std::string_view(reinterpret_cast<const char*>(data), size), "input");
    } catch (const InputError&) {
        return 0;
    }
    import::Importer importer;
    importer.add_document(doc, "input");
    const ResultsFile results = importer.finish();
    (void)results_to_json(results).dump();
    (void)import::format_report(importer.report());
    (void)import::why_nothing_imported(importer.report());
    return 0;
}
