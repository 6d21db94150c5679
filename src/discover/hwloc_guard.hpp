#pragma once
// Loads an untrusted hwloc XML export without letting it crash hwcomm.
// hwloc 2.9 does not defend itself against malformed exports: some end in
// SIGSEGV inside hwloc_topology_load, others print a 10-line banner. So the
// file is read once (regular files only, never blocking on a pipe), loaded
// first in a forked child that also checks the invariants our graph builder
// relies on, and loaded here only when the child succeeded; the child's
// death, failure or hang becomes a one-line UsageError.
#include <chrono>
#include <string>

#include <hwloc.h>

namespace hwcomm {

// Loads the XML export at `path` into `topology` (initialised, not yet
// loaded, filters set). Throws UsageError naming the file when it is not an
// hwloc export, when hwloc fails, crashes or hangs on it in the child, or when
// the loaded topology breaks hwloc's invariants.
void load_untrusted_xml(hwloc_topology_t topology, const std::string& path,
                        std::chrono::seconds child_limit = std::chrono::seconds(30));

}  // namespace hwcomm
