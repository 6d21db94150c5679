// The hwloc XML loading path of `hwcomm topo --input`: read, child load with
// invariant checks, load, graph building. A UsageError is the expected answer
// to a bad input; anything else (a crash in our code, a sanitizer report, a
// hang) is a finding. hwloc's own crashes happen in the child and are refused.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "discover/discover.hpp"

namespace {

std::string scratch_file() {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/hwcomm-fuzz-xml-" + std::to_string(::getpid()) + ".xml";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = scratch_file();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        const hwcomm::Graph graph =
            hwcomm::discover_machine({.input_xml = path, .use_nvml = false, .use_cuda = false});
        (void)graph.vertices().size();
    } catch (const hwcomm::UsageError&) {
    }
    return 0;
}
