#pragma once
// The log line of a finished record (hwcomm run, each node of run --mpi):
//   "[3/12] memcpy numa0->numa0 threads=multi: peak 12.34 GB/s at 1 GiB, 1 GiB 10.10 GB/s (2.1 s)"
// Its figure is the method's own headline (its catalog row): the best
// bandwidth over the sizes, marked when a cache holds that size; the best over
// a method's axes with the values that gave it; a latency in ns. An error
// record says its error.
#include <cstddef>
#include <string>

#include "catalog/method_row.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"

namespace hwcomm::text {

// `row`: the record's method row (null: the bandwidth headline); `topology`:
// the machine's graph for cache sizes (null: documented defaults).
std::string record_line(const Record& record, const MethodRow* row, const Graph* topology, std::size_t index,
                        std::size_t total);

}  // namespace hwcomm::text
