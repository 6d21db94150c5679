#pragma once
// Results files as one tidy table for analysis tools (pandas, R, DuckDB):
// one row per point (row_kind "point": the figure the point reports), per
// variant of a point ("variant": one CPU worker count) and per lane of a
// multi-lane point ("lane"), with one column per parameter, axis, extra and
// metric. Columns and their meaning: docs/export.md.
#include <string>
#include <vector>

#include "core/results.hpp"

namespace hwcomm {

struct ExportSource {
    std::string name;  // the path as given ("-" for standard input)
    const ResultsFile* file = nullptr;
};

enum class ExportFormat { Csv, Jsonl };

// CSV: a header, then every row with every column (empty when absent).
// JSONL: one JSON object per row, absent values null.
std::string export_tidy(const std::vector<ExportSource>& sources, ExportFormat format);

}  // namespace hwcomm
