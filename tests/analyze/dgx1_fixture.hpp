#pragma once
// The study's DGX-1 data (tests/fixtures/commscope-dgx1) imported once with
// the DGX-1 topology (tests/fixtures/hwloc/dgx1.xml), shared by the tests.
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/graph_json.hpp"
#include "discover/discover.hpp"
#include "discover/test_support.hpp"
#include "import/commscope.hpp"

namespace hwcomm::test {

struct Dgx1Import {
    ResultsFile results;
    import::ImportReport report;
};

inline const Dgx1Import& dgx1_import() {
    static const Dgx1Import data = [] {
        TempDir dir;
        const std::string command = "cd '" + dir.path() + "' && '" + HWCOMM_CMAKE + "' -E tar xf '" +
                                    fixture("commscope-dgx1/dgx1-memcpy.tar.xz") + "'";
        if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot extract the DGX-1 data");
        import::Importer importer;
        for (const auto& e : std::filesystem::directory_iterator(dir.path())) importer.add_file(e.path().string());
        const Graph g = discover_machine({.input_xml = fixture("hwloc/dgx1.xml"), .use_nvml = false, .use_cuda = false});
        Dgx1Import d;
        d.results = importer.finish(graph_to_json(g));
        d.report = importer.report();
        return d;
    }();
    return data;
}

}  // namespace hwcomm::test
