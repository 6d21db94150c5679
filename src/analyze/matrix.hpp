#pragma once
// A src x dst bandwidth matrix of one method, as NVIDIA's bandwidth tools
// print it: the large-transfer bandwidth of each pair, or its bandwidth at one size.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/results.hpp"

namespace hwcomm::analyze {

struct MatrixSpec {
    std::string method;
    std::map<std::string, std::string> params;  // each must match the record's
    std::optional<std::uint64_t> at_bytes;      // --at SIZE; else the large-transfer bandwidth
};

// "memcpy-peer:peer=on" or "memcpy-h2d:host_mem=pinned,numa=0"; throws
// std::runtime_error naming the problem.
MatrixSpec parse_matrix_spec(const std::string& text);
// Rows: sources, columns: destinations, in natural order (numa before gpu,
// numeric indexes). Several matching records of one pair: the largest value,
// with a note. Throws std::runtime_error when no record matches.
std::string format_matrix(const ResultsFile& file, const MatrixSpec& spec);

}  // namespace hwcomm::analyze
