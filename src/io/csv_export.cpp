#include "io/csv_export.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "io/point_json.hpp"

namespace hwcomm {

namespace {

// RFC 4180: quote fields holding a comma, quote or line break.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// An absent statistic (NaN: imported aggregates) is an empty field.
std::string num(double v) {
    if (!std::isfinite(v)) return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

}  // namespace

std::string results_to_csv(const ResultsFile& file) {
    std::ostringstream out;
    out << "method,src,dst,params,bytes,status,verified,stop_reason,n,min_s,q1_s,median_s,q3_s,max_s,mean_s,"
           "stdev_s,cv,ci95_low_s,ci95_high_s,bytes_per_rep,bandwidth_gbps,peak_bandwidth_gbps,best_variant,error\n";
    for (const auto& r : file.records) {
        std::string params;
        for (const auto& [k, v] : r.params) params += (params.empty() ? "" : ";") + k + "=" + v;
        for (const auto& p : r.points) {
            const auto& s = p.stats;
            out << csv_field(r.method) << ',' << csv_field(r.src) << ',' << csv_field(r.dst) << ','
                << csv_field(params) << ',' << p.bytes << ',' << csv_field(p.status) << ',' << (p.verified ? "true" : "false")
                << ',' << csv_field(p.stop_reason) << ',' << s.n;
            if (has_stats(s)) {
                for (double v : {s.min, s.q1, s.median, s.q3, s.max, s.mean, s.stdev, s.cv, s.ci95_low, s.ci95_high,
                                 p.bytes_per_rep, p.bandwidth_gbps, p.peak_bandwidth_gbps})
                    out << ',' << num(v);
            } else {
                out << std::string(13, ',');
            }
            out << ',' << csv_field(p.best_variant) << ',' << csv_field(p.error) << '\n';
        }
    }
    return out.str();
}

}  // namespace hwcomm
