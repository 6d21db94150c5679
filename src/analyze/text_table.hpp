#pragma once
// Plain-text tables of the text reports (summary's GPU and CPU memory sections).
#include <optional>
#include <string>
#include <vector>

#include "measure/link_text.hpp"

namespace hwcomm::analyze {

// A number in a table cell (printf `format`), "-" where there is none.
inline std::string table_number(double v, const char* format = "%.1f") { return format_number(v, format); }
inline std::string table_number(const std::optional<double>& v, const char* format = "%.1f") {
    return v ? table_number(*v, format) : "-";
}

// Each row on a line after `indent`, columns padded to their widest cell,
// right-aligned but the first; trailing blanks trimmed.
std::string text_table(const std::vector<std::vector<std::string>>& rows, const std::string& indent);

}  // namespace hwcomm::analyze
