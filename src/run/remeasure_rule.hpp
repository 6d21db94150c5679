#pragma once
// Which ladder point is measured once more (once per record): a transient on
// the host, not the link, whose median would break the plateau rule and send
// the ladder on to the largest size. The first measurement stays in
// context.remeasured with the rule's text.
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm {

// The rule the last point of `points` (the one just measured) breaks, as the
// text context.remeasured keeps; nullopt when it breaks none. Both rules hold
// only on a quiet curve: the median CI of the other points from 16 MiB is at
// most 2% (CPU memory, pageable copies and demand paging, at +-5-20%, are
// never measured twice).
std::optional<std::string> remeasure_rule(const std::vector<Point>& points);

}  // namespace hwcomm
