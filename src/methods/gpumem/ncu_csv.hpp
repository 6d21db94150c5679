#pragma once
// Reading Nsight Compute's CSV report (`ncu --csv --metrics ...`): one row per
// profiled kernel and metric, after any "==PROF==" lines. Kept free of CUDA so
// CI tests it on saved reports.
#include <map>
#include <string>
#include <vector>

namespace hwcomm::gpumem {

// One profiled kernel: its ncu ID, name and the metrics asked for (values in
// the report's units, thousands separators removed).
struct NcuKernel {
    long id = -1;
    std::string name;
    std::map<std::string, double> metrics;
};

// The kernels of a report in ID order. Throws MeasurementError (one line) when
// the text has no CSV header with the columns ID, Kernel Name, Metric Name and
// Metric Value, or a row's value is not a number.
std::vector<NcuKernel> parse_ncu_csv(const std::string& text);

// Splits one CSV line into fields ("a","b,c" -> a | b,c; "" inside quotes is ").
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace hwcomm::gpumem
