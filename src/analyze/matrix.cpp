#include "analyze/matrix.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analyze/curve_metrics.hpp"
#include "analyze/record_facts.hpp"
#include "analyze/summary.hpp"
#include "catalog/row_json.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm::analyze {

MatrixSpec parse_matrix_spec(const std::string& text) {
    MatrixSpec spec;
    const auto colon = text.find(':');
    spec.method = text.substr(0, colon);
    if (spec.method.empty()) throw std::runtime_error("--matrix needs a method, e.g. memcpy-peer:peer=on");
    if (colon == std::string::npos) return spec;
    std::stringstream rest(text.substr(colon + 1));
    for (std::string item; std::getline(rest, item, ',');) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            throw std::runtime_error("--matrix parameter '" + item + "' is not key=value");
        spec.params[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return spec;
}

namespace {

// numa before gpu, then by index.
bool natural_less(const std::string& a, const std::string& b) {
    auto rank = [](const std::string& id) { return is_numa_id(id) ? 0 : is_gpu_id(id) ? 1 : 2; };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    if (id_index(a) != id_index(b)) return id_index(a) < id_index(b);
    return a < b;
}

}  // namespace

std::string format_matrix(const ResultsFile& file, const MatrixSpec& spec) {
    std::map<std::pair<std::string, std::string>, double> cell;
    std::map<std::pair<std::string, std::string>, int> count;
    std::set<std::string, decltype(&natural_less)> srcs(&natural_less), dsts(&natural_less);
    const MethodCatalog catalog = catalog_for(file.meta);
    for (const Record& r : file.records) {
        if (r.method != spec.method) continue;
        bool match = true;
        for (const auto& [k, v] : spec.params) {
            const auto it = r.params.find(k);
            match = match && it != r.params.end() && it->second == v;
        }
        if (!match) continue;
        std::optional<double> value;
        if (spec.at_bytes) {
            for (const CurvePoint& p : curve_points(r))
                if (p.bytes == *spec.at_bytes) value = p.gbps;
        } else {
            const CurveMetrics m = curve_metrics(r, catalog.find(r.method), nullptr);
            if (m.large) value = m.large->gbps;
        }
        srcs.insert(r.src);
        dsts.insert(r.dst);
        if (!value) continue;
        const auto key = std::make_pair(r.src, r.dst);
        ++count[key];
        cell[key] = std::max(cell.count(key) ? cell[key] : 0.0, *value);
    }
    if (srcs.empty()) throw std::runtime_error("no record of method " + spec.method + " matches --matrix");
    std::ostringstream out;
    std::string title = spec.method;
    for (const auto& [k, v] : spec.params) title += " " + k + "=" + v;
    out << title << ", GB/s "
        << (spec.at_bytes ? "at " + format_size(*spec.at_bytes) : std::string("large-transfer (>= 64 MiB)"))
        << " (rows: source, columns: destination)\n";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%8s", "src\\dst");
    out << buf;
    for (const auto& d : dsts) {
        std::snprintf(buf, sizeof buf, " %9s", d.c_str());
        out << buf;
    }
    out << "\n";
    bool several = false;
    for (const auto& s : srcs) {
        std::snprintf(buf, sizeof buf, "%8s", s.c_str());
        out << buf;
        for (const auto& d : dsts) {
            const auto it = cell.find({s, d});
            if (it == cell.end())
                std::snprintf(buf, sizeof buf, " %9s", "-");
            else
                std::snprintf(buf, sizeof buf, " %8.2f%s", it->second, count[{s, d}] > 1 ? "*" : " ");
            several = several || (it != cell.end() && count[{s, d}] > 1);
            out << buf;
        }
        out << "\n";
    }
    if (several) out << "* several records match this pair (add parameters to --matrix); the largest is shown\n";
    return out.str();
}

}  // namespace hwcomm::analyze
