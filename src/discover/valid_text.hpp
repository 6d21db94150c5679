#pragma once
// The discovery boundary for text: hwloc, NVML and CUDA hand over strings
// (CPU models, PCI device names, OS device names, host facts) as raw bytes,
// and an export may hold latin-1 where UTF-8 belongs. Every string of the
// graph is made valid UTF-8 here, once, so that every output (JSON, tree,
// SVG, DOT) is valid whatever the machine said.
#include "core/graph.hpp"

namespace hwcomm {

// Replaces each invalid byte by U+FFFD in names, attributes, notes and
// provenance; an id with invalid bytes gets them as "\xNN" (ids must stay
// distinct). Each replaced string adds one note keeping its original bytes
// escaped. Returns the number of strings replaced.
int make_graph_text_valid(Graph& graph);

}  // namespace hwcomm
