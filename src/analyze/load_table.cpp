#include "analyze/load_table.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "catalog/method_params.hpp"
#include "measure/byte_size.hpp"
#include "measure/statistics.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::analyze {

namespace {

std::string param(const Record& r, const std::string& key, const std::string& fallback) {
    const auto it = r.params.find(key);
    return it == r.params.end() ? fallback : it->second;
}

const Point* ok_point(const Record& r, std::uint64_t bytes) {
    for (const Point& p : r.points)
        if (p.bytes == bytes && p.status == "ok" && p.axes.empty()) return &p;
    return nullptr;
}

double extra(const Point& p, const std::string& name, double fallback) {
    const auto it = p.extras.find(name);
    return it == p.extras.end() ? fallback : it->second;
}

bool has_view(const MethodCatalog& catalog, const Record& r, MethodView view) {
    const MethodRow* row = catalog.find(r.method);
    return row && row->view == view;
}

}  // namespace

std::vector<LoadTable> load_tables(const std::vector<Record>& records, const MethodCatalog& catalog) {
    std::map<std::pair<std::string, std::string>, std::vector<const Record*>> routes;
    std::vector<std::pair<std::string, std::string>> order;
    for (const Record& r : records) {
        if (!has_view(catalog, r, MethodView::UnderLoadTable) || r.status != "ok") continue;
        auto& v = routes[{r.src, r.dst}];
        if (v.empty()) order.push_back({r.src, r.dst});
        v.push_back(&r);
    }
    std::vector<LoadTable> out;
    for (const auto& key : order) {
        const auto& recs = routes.at(key);
        // The largest size that every record of the route measured.
        std::vector<std::uint64_t> common;
        for (const Point& p : recs.front()->points)
            if (std::all_of(recs.begin(), recs.end(), [&](const Record* r) { return ok_point(*r, p.bytes); }))
                common.push_back(p.bytes);
        if (common.empty()) continue;
        LoadTable t{key.first, key.second, *std::max_element(common.begin(), common.end()), {}};
        double alone = 0;
        for (const Record* r : recs) {
            const Point& p = *ok_point(*r, t.bytes);
            LoadRow row;
            try {
                row.loads = std::stoul(param(*r, LoadsParam::key, "0"));
            } catch (const std::exception&) {
                continue;  // not a count: not ours to read
            }
            row.with = param(*r, WithParam::key, WithParam::None);
            row.gbps = p.bandwidth_gbps;
            row.load_gbps = extra(p, "load_gbps", 0);
            row.load_covered = extra(p, "load_covered", 1) >= 0.5;
            if (row.loads == 0) alone = row.gbps;
            t.rows.push_back(row);
        }
        std::stable_sort(t.rows.begin(), t.rows.end(), [](const LoadRow& a, const LoadRow& b) { return a.loads < b.loads; });
        for (LoadRow& row : t.rows) row.fraction_of_alone = alone > 0 ? row.gbps / alone : 0;
        out.push_back(std::move(t));
    }
    return out;
}

namespace {

void split_waits(PriorityRow& row, const std::vector<double>& samples_s, double alone_s) {
    std::vector<double> waited;
    for (const double s : samples_s)
        if (s > 2 * alone_s) waited.push_back(s);
    row.small_samples = samples_s.size();
    row.small_waited = waited.size();
    row.wait_when_waited_seconds = waited.empty() ? 0 : median_value(std::move(waited)) - alone_s;
}

}  // namespace

std::vector<PriorityTable> priority_tables(const std::vector<Record>& records, const MethodCatalog& catalog) {
    std::vector<PriorityTable> out;
    for (const Record& r : records) {
        if (!has_view(catalog, r, MethodView::PriorityTable) || r.points.empty()) continue;
        const auto engine = r.params.find("engine");
        PriorityTable t{r.src, r.dst, engine == r.params.end() ? "ce" : engine->second, {}};
        std::map<std::string, const std::vector<double>*> small_samples;
        for (const char* level : {"alone", "equal", "high"}) {
            PriorityRow row;
            row.priority = level;
            for (const Point& p : r.points) {
                const auto it = p.axes.find("priority");
                if (p.status != "ok" || it == p.axes.end() || !it->second.is_string() ||
                    it->second.get<std::string>() != level)
                    continue;
                if (row.small_bytes == 0 || p.bytes < row.small_bytes) {
                    row.small_bytes = p.bytes;
                    row.small_seconds = p.stats.median;
                    small_samples[level] = &p.samples_s;
                }
                if (p.bytes > row.large_bytes) {
                    row.large_bytes = p.bytes;
                    row.large_gbps = p.bandwidth_gbps;
                }
            }
            if (row.small_bytes) t.rows.push_back(row);
        }
        if (!t.rows.empty() && t.rows.front().priority == "alone")
            for (PriorityRow& row : t.rows)
                if (row.priority != "alone" && row.small_bytes == t.rows.front().small_bytes) {
                    row.small_wait_seconds = row.small_seconds - t.rows.front().small_seconds;
                    split_waits(row, *small_samples.at(row.priority), t.rows.front().small_seconds);
                }
        if (!t.rows.empty()) out.push_back(std::move(t));
    }
    return out;
}

std::string format_load_tables(const std::vector<LoadTable>& load, const std::vector<PriorityTable>& priority) {
    std::ostringstream out;
    if (!load.empty()) out << "\nBandwidth under load (under-load; fraction of the route alone; U = load lanes together)\n";
    for (const LoadTable& t : load) {
        out << "  " << t.src << " -> " << t.dst << " at " << format_size(t.bytes) << "\n";
        out << "    loads  GB/s      of alone  U GB/s   with\n";
        for (const LoadRow& r : t.rows) {
            char line[160];
            std::snprintf(line, sizeof line, "    %-5zu  %-8s  %-8s  %-7s  ", r.loads, format_fixed(r.gbps, 1).c_str(),
                          r.fraction_of_alone > 0 ? format_fixed(r.fraction_of_alone, 3).c_str() : "-",
                          r.loads ? format_fixed(r.load_gbps, 1).c_str() : "-");
            out << line << r.with << (r.load_covered ? "" : " (load ended inside the window)") << "\n";
        }
    }
    if (!priority.empty())
        out << "\nPriority against a low-priority load on the same route (one transfer per sample: its time from the "
               "common release to its end; wait = that time minus the transfer's time alone; a sample waited when it "
               "took over twice the time alone: the times come in two modes, waited or not, and the median may fall "
               "in either)\n";
    for (const PriorityTable& t : priority) {
        const bool ce = t.engine == "ce";
        out << "  " << t.src << " -> " << t.dst << (ce ? ", copy engines (ce)" : ", copy kernels (sm)") << "\n";
        for (const PriorityRow& r : t.rows) {
            out << "    " << r.priority << ": " << format_fixed(r.small_seconds * 1e6, 1) << " us at " << format_size(r.small_bytes);
            if (r.priority != "alone") {
                out << " (wait " << format_fixed(r.small_wait_seconds * 1e6, 1) << " us";
                if (r.small_samples)
                    out << "; waited in " << r.small_waited << " of " << r.small_samples << " samples"
                        << (r.small_waited ? ", " + format_fixed(r.wait_when_waited_seconds * 1e6, 1) + " us when it did" : "");
                out << ")";
            }
            // Under a load the copy engines serve first, bytes over time is the queue's, not the route's.
            if (r.priority == "alone" || !ce) out << ", " << format_fixed(r.large_gbps, 1) << " GB/s at " << format_size(r.large_bytes);
            out << "\n";
        }
        if (ce)
            out << "    copy engines do not honour stream priorities: they serve copies in the order queued, so equal "
                   "and high wait alike for the load queued ahead (nvidia-h200-x2: 77.8 ms at 4 KiB both; "
                   "nvidia-h100-x1: 78-82 ms, issue 22); these times are a queue's, not the route's\n";
    }
    return out.str();
}

nlohmann::json load_tables_to_json(const std::vector<LoadTable>& load, const std::vector<PriorityTable>& priority) {
    nlohmann::json j{{"under_load", nlohmann::json::array()}, {"priority", nlohmann::json::array()}};
    for (const LoadTable& t : load) {
        nlohmann::json rows = nlohmann::json::array();
        for (const LoadRow& r : t.rows)
            rows.push_back({{"loads", r.loads}, {"with", r.with}, {"gbps", r.gbps},
                            {"fraction_of_alone", r.fraction_of_alone}, {"load_gbps", r.load_gbps},
                            {"load_covered", r.load_covered}});
        j["under_load"].push_back({{"src", t.src}, {"dst", t.dst}, {"bytes", t.bytes}, {"rows", rows}});
    }
    for (const PriorityTable& t : priority) {
        nlohmann::json rows = nlohmann::json::array();
        for (const PriorityRow& r : t.rows)
            rows.push_back({{"priority", r.priority}, {"small_bytes", r.small_bytes}, {"small_seconds", r.small_seconds},
                            {"small_wait_seconds", r.small_wait_seconds}, {"small_samples", r.small_samples},
                            {"small_waited", r.small_waited}, {"wait_when_waited_seconds", r.wait_when_waited_seconds},
                            {"large_bytes", r.large_bytes},
                            {"large_gbps", r.large_gbps}});
        nlohmann::json table{{"src", t.src}, {"dst", t.dst}, {"engine", t.engine}, {"rows", rows}};
        if (t.engine == "ce") table["note"] = "copy engines do not honour stream priorities: loaded times are a queue's wait";
        j["priority"].push_back(std::move(table));
    }
    return j;
}

}  // namespace hwcomm::analyze
