#pragma once
// The methods of transfers under load and of the pattern C (docs/under-load.md):
//   under-load  the default load scenarios of the graph: per class of shared
//               resource and route, one route alone and with 1, half and all
//               of the other routes loading the resource it shares
//   lane-sweep  1, 2, ..., all routes of one shared resource per class at once
//   in-flight   one copy with 1, 2, 4, 8 transfers in flight, on one stream or several
//   priority    a copy on a high-priority stream against low-priority load on the same route
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

std::unique_ptr<Characterizer> make_under_load();
std::unique_ptr<Characterizer> make_lane_sweep();
std::unique_ptr<Characterizer> make_in_flight();
std::unique_ptr<Characterizer> make_priority();

}  // namespace hwcomm::cuda
