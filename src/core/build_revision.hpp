#pragma once
// The version and git revision of this build. Defined in a file CMake
// generates, so a new revision recompiles one file, not every user of core.
namespace hwcomm {

const char* tool_version();  // "0.1.0"
const char* git_revision();  // `git describe --always --dirty` at configure time, or HWCOMM_REVISION

}  // namespace hwcomm
