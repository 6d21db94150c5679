#include <algorithm>
#include <cmath>

#include "analyze/study.hpp"
#include "measure/statistics.hpp"

namespace hwcomm::analyze {

double VerdictRule::reduce(std::vector<double> differences) const {
    if (statistic == "max")
        return *std::max_element(differences.begin(), differences.end(),
                                 [](double a, double b) { return std::abs(a) < std::abs(b); });
    if (statistic == "mean") {
        double sum = 0;
        for (double x : differences) sum += x;
        return sum / static_cast<double>(differences.size());
    }
    return median_value(std::move(differences));
}

}  // namespace hwcomm::analyze
