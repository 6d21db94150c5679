#pragma once
// Identical-link anomalies (issue 21 item 4) among the records of a link
// class (classes/) whose representative was measured with the same method and
// comparable parameters. Where three or more of them have a point at a size
// of the rule's window, each (the representative too) against the class's
// median there: an outlier beyond the rule's threshold, 3.5 robust sd of the
// class's scatter or its own 95% CI, whichever is widest. Else against the
// representative at the sizes both measured in the window (none there: the
// largest size both measured), beyond the threshold or the representative's
// CI, where wider. docs/classes.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/study.hpp"
#include "classes/link_classes.hpp"

namespace hwcomm::analyze {

struct ClassOutlier {
    std::string key;             // the record that differs
    std::string representative;  // its class representative's record
    std::string class_id, class_description;
    std::string measured_as;     // how the run measured the record: full, confirmed, promoted
    double difference = 0;       // the rule's statistic over the sizes of record / representative - 1
    double tolerance = 0;        // max(threshold, the representative's relative CI half-width there)
    std::vector<std::uint64_t> sizes;
    bool in_window = true;       // false: compared at the largest common size, below the window
    // > 0: compared with the median of the class's links, and this many links'
    // bandwidths made that median (the fewest over `sizes`: a member may lack a
    // point at a size); 0: compared with the representative.
    std::size_t class_links = 0;
    // For a record of host memory: the host read probe's rate around it over
    // the rate around what it was compared with (the representative, or the
    // median over the class's records), when both have visits
    // (analyze/host_read.hpp): a difference the host made looks like this.
    std::optional<double> host_read_ratio;
};

std::vector<ClassOutlier> class_outliers(const ResultsFile& file, const ClassMap& classes, const VerdictRule& rule);

// The anomaly line of an outlier ("identical-link-outlier").
Anomaly outlier_anomaly(const ClassOutlier& outlier);

}  // namespace hwcomm::analyze
