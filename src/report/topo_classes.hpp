#pragma once
// The "Link classes" section of `hwcomm topo`: which pairs of the machine
// cross equivalent paths (classes/link_classes.hpp), one line per class with
// its representative and members.
#include <ostream>

#include "classes/link_classes.hpp"

namespace hwcomm {

// At most `shown` members per class are listed; the rest are counted.
void print_link_classes(const ClassMap& map, std::ostream& out, std::size_t shown = 12);

}  // namespace hwcomm
