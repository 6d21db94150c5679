// The results-file reader (summary, export, run --resume): depth-limited
// parse, schema checks, records, resumed options, the cluster section, and
// writing it back.
// UsageError and std::runtime_error are its documented answers to bad input.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "core/json_parse.hpp"
#include "core/results.hpp"
#include "io/cluster_section.hpp"
#include "io/results_json.hpp"
#include "run/run_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto doc = hwcomm::parse_json_text(std::string_view(reinterpret_cast<const char*>(data), size), "input");
        const hwcomm::ResultsFile file = hwcomm::results_from_json(doc);
        (void)hwcomm::results_to_json(file).dump();
        if (const auto cluster = hwcomm::cluster_section_of(file))  // version 2.1: the nodes of an MPI run
            for (const auto& r : file.records) (void)hwcomm::split_cluster_endpoint(r.src, *cluster);
        if (file.meta.is_object() && file.meta.contains("options")) {
            const hwcomm::RunOptions options = hwcomm::run_options_from_json(file.meta.at("options"));
            (void)hwcomm::run_options_to_json(options).dump();
        }
    } catch (const std::runtime_error&) {  // UsageError included
    }
    return 0;
}
