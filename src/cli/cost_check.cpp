#include "cli/cost_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace hwcomm::cli {

namespace {

struct Sum {
    std::size_t records = 0;
    double measured = 0, estimated = 0;
};

std::string row(const std::string& name, const Sum& s) {
    char b[160];
    std::snprintf(b, sizeof b, "| %s | %zu | %.1f | %.1f | %+.0f%% |\n", name.c_str(), s.records, s.measured, s.estimated,
                  s.measured > 0 ? 100 * (s.estimated / s.measured - 1) : 0.0);
    return b;
}

}  // namespace

std::string cost_check_table(const std::vector<RecordedEstimate>& records) {
    std::map<std::string, Sum> by_method;
    Sum total;
    double planned = 0;
    std::size_t promoted = 0;
    for (const RecordedEstimate& r : records) {
        planned += r.planned_s;
        promoted += r.measured_as == "promoted";
    }
    for (const RecordedEstimate& r : records)
        for (Sum* s : {&by_method[r.method], &total}) {
            ++s->records;
            s->measured += r.elapsed_s;
            s->estimated += r.estimate_s;
        }
    std::vector<std::pair<std::string, Sum>> rows(by_method.begin(), by_method.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.measured > b.second.measured; });
    // The targets: the total within 10%, every method measured for 5 s or more within 20%.
    std::size_t large = 0, large_within = 0;
    for (const auto& [name, s] : rows)
        if (s.measured >= 5) {
            ++large;
            large_within += std::fabs(s.estimated / s.measured - 1) <= 0.2;
        }
    std::string out = "| method | records | measured s | estimate s | error |\n|---|---:|---:|---:|---:|\n";
    for (const auto& [name, s] : rows) out += row(name, s);
    out += row("**total**", total);
    char b[160];
    std::snprintf(b, sizeof b, "\nmethods measured for 5 s or more: %zu, within 20%%: %zu\n", large, large_within);
    out += b;
    // A promoted record counts above as its confirmation plus the full sweep
    // it became; the plan's own total cannot foresee which are promoted.
    std::snprintf(b, sizeof b, "as planned (%zu promotions not foreseen): %.1f s, %+.0f%%\n", promoted, planned,
                  total.measured > 0 ? 100 * (planned / total.measured - 1) : 0.0);
    return out + b;
}

}  // namespace hwcomm::cli
