// The parsers of command-line values: sizes (--min-size), sweeps built from
// them, --filter specs against a registry and a small graph, --under-load specs. The input is
// split at newlines: first line a size, the rest filter specs.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/graph.hpp"
#include "measure/byte_size.hpp"
#include "measure/sweep.hpp"
#include "methods/cpu/register.hpp"
#include "methods/under_load.hpp"
#include "run/filter.hpp"
#include "run/run_options.hpp"

namespace {

hwcomm::Graph small_graph() {
    hwcomm::Graph g;
    g.add_vertex({.id = "numa0", .kind = hwcomm::VertexKind::NumaNode});
    g.add_vertex({.id = "numa1", .kind = hwcomm::VertexKind::NumaNode});
    return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const hwcomm::Graph graph = small_graph();
    static const hwcomm::Registry registry = [] {
        hwcomm::Registry r;
        hwcomm::register_cpu_methods(r);
        return r;
    }();
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::string line;
    std::getline(in, line);
    try {
        hwcomm::RunOptions o = hwcomm::default_run_options();
        o.sweep.min_bytes = hwcomm::parse_size(line);
        o.sweep.max_bytes = std::min<std::uint64_t>(o.sweep.min_bytes << 4, std::uint64_t{1} << 40);
        o.sizes = hwcomm::sweep_sizes(o.sweep);
        hwcomm::validate_run_options(o);
        (void)hwcomm::format_size(o.sweep.min_bytes);
    } catch (const hwcomm::UsageError&) {
    }
    std::vector<std::string> specs;
    while (std::getline(in, line)) specs.push_back(line);
    try {
        const hwcomm::Filters filters(specs, registry, graph);
        (void)filters.accepts("cpu-read", "numa0", "numa1");
    } catch (const hwcomm::UsageError&) {
    }
    // The same lines as --under-load SPECs: parsed, then resolved on the small graph.
    for (const auto& spec : specs) {
        try {
            (void)hwcomm::resolve_load_spec(graph, hwcomm::parse_load_spec(spec));
        } catch (const hwcomm::UsageError&) {
        }
    }
    return 0;
}
