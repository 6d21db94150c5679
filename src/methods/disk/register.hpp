#pragma once
#include "methods/characterizer.hpp"

namespace hwcomm {
// Adds disk-read (docs/disk.md).
void register_disk_methods(Registry& registry);
}  // namespace hwcomm
