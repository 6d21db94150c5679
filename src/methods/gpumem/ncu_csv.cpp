#include "methods/gpumem/ncu_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"

namespace hwcomm::gpumem {

std::vector<std::string> split_csv_line(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

namespace {

// "33,554,432" or "1.5e+06": ncu groups digits by default.
bool parse_number(std::string text, double& out) {
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    if (text.empty()) return false;
    errno = 0;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return errno == 0 && end == text.c_str() + text.size();
}

long column(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw MeasurementError("ncu report: no column \"" + name + "\" in its CSV header");
    return it - header.begin();
}

}  // namespace

std::vector<NcuKernel> parse_ncu_csv(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line))
        if (line.rfind("\"ID\"", 0) == 0) {
            header = split_csv_line(line);
            break;
        }
    if (header.empty()) throw MeasurementError("ncu report: no CSV header (\"ID\",...): no kernel was profiled");
    const long id_col = column(header, "ID"), name_col = column(header, "Kernel Name");
    const long metric_col = column(header, "Metric Name"), value_col = column(header, "Metric Value");
    const auto needed = static_cast<std::size_t>(std::max({id_col, name_col, metric_col, value_col})) + 1;
    std::map<long, NcuKernel> by_id;
    while (std::getline(in, line)) {
        if (line.empty() || line.rfind("==", 0) == 0) continue;  // ncu's own messages
        const auto f = split_csv_line(line);
        if (f.size() < needed) throw MeasurementError("ncu report: a row has " + std::to_string(f.size()) + " fields, not " + std::to_string(header.size()));
        double id = 0, value = 0;
        if (!parse_number(f[id_col], id)) throw MeasurementError("ncu report: kernel ID \"" + f[id_col] + "\" is not a number");
        if (!parse_number(f[value_col], value))
            throw MeasurementError("ncu report: " + f[metric_col] + " = \"" + f[value_col] + "\" is not a number");
        NcuKernel& k = by_id[static_cast<long>(id)];
        k.id = static_cast<long>(id);
        k.name = f[name_col];
        k.metrics[f[metric_col]] = value;
    }
    std::vector<NcuKernel> kernels;
    for (auto& [id, k] : by_id) kernels.push_back(std::move(k));
    return kernels;
}

}  // namespace hwcomm::gpumem
