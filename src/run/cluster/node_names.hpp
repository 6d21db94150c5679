#pragma once
// Node names of a cluster run: --node-name PATTERN with %r (the rank), %h
// (the hostname) and %% expanded, else the hostname; names that collide get
// "-r<rank>" appended so every node is named once.
#include <string>
#include <vector>

namespace hwcomm {

// Throws UsageError for an unknown %-sequence or a name with ':' (it would
// clash with node-qualified ids, "node:gpu0") or empty.
std::string expand_node_name(const std::string& pattern, int rank, const std::string& hostname);

// Every rank's name made unique, in rank order.
std::vector<std::string> unique_node_names(const std::vector<std::string>& names);

}  // namespace hwcomm
