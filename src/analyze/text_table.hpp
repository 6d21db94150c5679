#pragma once
// Plain-text tables of the text reports (summary's GPU and CPU memory sections).
#include <string>
#include <vector>

namespace hwcomm::analyze {

// Each row on a line after `indent`, columns padded to their widest cell,
// right-aligned but the first; trailing blanks trimmed.
std::string text_table(const std::vector<std::vector<std::string>>& rows, const std::string& indent);

}  // namespace hwcomm::analyze
