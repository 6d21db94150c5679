// How curves become charts: comparisons side by side (pinned vs pageable vs
// write-combined, local vs remote node, peer on vs off, each duplex direction,
// file vs file), small-transfer time per method, src x dst heatmaps.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "analyze/cpu_facts.hpp"
#include "report/html/report_cpu.hpp"
#include "report/html/report_gpumem.hpp"
#include "report/html/report_model.hpp"
#include "catalog/row_json.hpp"

namespace hwcomm::report_html {

namespace {

using nlohmann::json;

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }
bool is_host(const std::string& id) { return starts_with(id, "numa"); }
bool is_gpu(const std::string& id) { return starts_with(id, "gpu"); }

// "numa=N" repeats the host endpoint: drop it from labels and grouping keys.
std::string params_without_numa(const std::string& params) {
    std::string out;
    std::size_t start = 0;
    while (start <= params.size()) {
        std::size_t end = params.find(' ', start);
        if (end == std::string::npos) end = params.size();
        const std::string item = params.substr(start, end - start);
        if (!item.empty() && !starts_with(item, "numa=")) out += (out.empty() ? "" : " ") + item;
        start = end + 1;
    }
    return out;
}

std::string with_file(const json& curve, const std::vector<std::string>& files, const std::string& label) {
    if (files.size() < 2) return label;
    return files[curve["file"].get<std::size_t>()] + ": " + label;
}

struct GroupKey {
    std::string key, title, label;
};

// The charts a method shares: copies that move the same bytes over the same
// route share a chart whatever engine moves them (copy engine vs SM copy, peer
// on vs off): their rows name one report group. Duplex totals (two directions)
// and methods without a group get charts of their own.
std::string group_of(const std::string& method, const MethodRow* row) {
    if (!row || row->report_group.empty()) return method;
    return row->report_group;
}

GroupKey group_key(const json& c, const MethodCatalog& catalog) {
    const std::string method = c["method"], src = c["src"], dst = c["dst"];
    const std::string params = params_without_numa(c["params"]);
    const std::string family = group_of(method, catalog.find(method));
    const bool one_method = family == method;
    const std::string what = one_method ? (params.empty() ? method : params) : method + (params.empty() ? "" : " " + params);
    const char* arrow = " \xE2\x86\x92 ";
    if (is_host(src) && is_gpu(dst))
        return {family + "|to|" + dst, family + ": host" + arrow + dst, src + " " + what};
    if (is_gpu(src) && is_host(dst))
        return {family + "|from|" + src, family + ": " + src + arrow + "host", dst + " " + what};
    if (is_host(src) && is_host(dst))
        return {family + "|" + params, family + (params.empty() ? "" : " (" + params + ")"), src + arrow + dst};
    if (src == dst)  // copies within one device: every device on one chart
        return {family + "|within|" + what, family + ": within each device", src + " " + what};
    return {family + "|" + src + "|" + dst, family + ": " + src + arrow + dst, what};
}

std::string caption_for(const std::vector<json>& curves) {
    std::map<std::string, std::set<std::string>> values;  // param -> values seen
    std::set<std::string> hosts, files, methods;
    bool parts = false;
    for (const json& c : curves) {
        methods.insert(c["method"].get<std::string>());
        for (const std::string& item : {std::string(c["params"])}) {
            std::size_t start = 0;
            while (start < item.size()) {
                std::size_t end = item.find(' ', start);
                if (end == std::string::npos) end = item.size();
                const std::string kv = item.substr(start, end - start);
                if (auto eq = kv.find('='); eq != std::string::npos) values[kv.substr(0, eq)].insert(kv.substr(eq + 1));
                start = end + 1;
            }
        }
        hosts.insert(is_host(c["src"]) ? std::string(c["src"]) : std::string(c["dst"]));
        files.insert(std::to_string(c["file"].get<std::size_t>()));
        parts = parts || c.contains("parts");
    }
    std::vector<std::string> compared;
    for (const auto& [key, seen] : values) {
        if (key == "numa" || seen.size() < 2) continue;
        std::string list;
        for (const auto& v : seen) list += (list.empty() ? "" : " vs ") + v;
        compared.push_back(key + ": " + list);
    }
    if (methods.size() > 1) {
        std::string list;
        for (const auto& m : methods) list += (list.empty() ? "" : " vs ") + m;
        compared.insert(compared.begin(), "method: " + list);
    }
    if (hosts.size() > 1) compared.push_back("local vs remote NUMA node");
    if (parts) compared.push_back("each direction (thin lines) against the total");
    if (files.size() > 1) compared.push_back("file against file");
    std::string text = compared.empty() ? "One curve." : "Compares ";
    for (std::size_t i = 0; i < compared.size(); ++i) text += (i ? "; " : "") + compared[i];
    if (!compared.empty()) text += ".";
    return text;
}

std::vector<std::string> file_names(const std::vector<ReportInput>& inputs) {
    std::vector<std::string> names;
    for (const auto& input : inputs) names.push_back(input.name);
    return names;
}

}  // namespace

json comparison_groups(const json& curves, const std::vector<MethodCatalog>& catalogs) {
    std::vector<std::string> order;
    std::map<std::string, json> groups;
    std::map<std::string, std::vector<json>> members;
    for (std::size_t id = 0; id < curves.size(); ++id) {
        const json& c = curves[id];
        const GroupKey key = group_key(c, catalogs.at(c["file"].get<std::size_t>()));
        if (!groups.count(key.key)) {
            order.push_back(key.key);
            groups[key.key] = {{"title", key.title}, {"curves", json::array()}};
        }
        groups[key.key]["curves"].push_back({{"id", id}, {"label", key.label}});
        members[key.key].push_back(c);
    }
    json out = json::array();
    for (const auto& key : order) {
        groups[key]["caption"] = caption_for(members[key]);
        out.push_back(std::move(groups[key]));
    }
    return out;
}

json small_transfer_charts(const json& curves) {
    std::vector<std::string> order;
    std::map<std::string, json> charts;
    for (std::size_t id = 0; id < curves.size(); ++id) {
        const json& c = curves[id];
        const std::string method = c["method"];
        if (!charts.count(method)) {
            order.push_back(method);
            charts[method] = {{"title", method}, {"curves", json::array()}};
        }
        const std::string params = params_without_numa(c["params"]);
        charts[method]["curves"].push_back(
            {{"id", id}, {"label", std::string(c["src"]) + " \xE2\x86\x92 " + std::string(c["dst"]) + (params.empty() ? "" : " " + params)}});
    }
    json out = json::array();
    for (const auto& method : order) out.push_back(std::move(charts[method]));
    return out;
}

json heatmaps(const json& curves, const std::vector<ReportInput>& inputs) {
    const auto files = file_names(inputs);
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> members;
    for (std::size_t id = 0; id < curves.size(); ++id) {
        const json& c = curves[id];
        const std::string key = std::to_string(c["file"].get<std::size_t>()) + "|" + std::string(c["method"]) + "|" +
                                params_without_numa(c["params"]);
        if (!members.count(key)) order.push_back(key);
        members[key].push_back(id);
    }
    // Copies within one GPU carry no peer setting: they are the diagonal of
    // both the peer-on and the peer-off matrices (as p2pBandwidthLatencyTest prints them).
    std::set<std::string> merged;
    for (const std::string peer : {"peer=on", "peer=off"}) {
        for (const auto& key : order) {
            if (key.size() < peer.size() || key.compare(key.size() - peer.size(), peer.size(), peer) != 0) continue;
            const std::string plain = key.substr(0, key.size() - peer.size());  // "file|method|"
            if (!members.count(plain)) continue;
            for (std::size_t id : members[plain])
                if (curves[id]["src"] == curves[id]["dst"]) members[key].push_back(id);
            merged.insert(plain);
        }
    }
    std::erase_if(order, [&](const std::string& key) { return merged.count(key) > 0; });
    json out = json::array();
    for (const auto& key : order) {
        const auto& ids = members[key];
        std::set<std::string> srcs, dsts;
        std::set<std::uint64_t> sizes;
        for (std::size_t id : ids) {
            srcs.insert(curves[id]["src"].get<std::string>());
            dsts.insert(curves[id]["dst"].get<std::string>());
            for (const auto& b : curves[id]["b"]) sizes.insert(b.get<std::uint64_t>());
        }
        if (ids.size() < 2) continue;  // one cell is not a matrix
        const std::vector<std::string> rows(srcs.begin(), srcs.end()), cols(dsts.begin(), dsts.end());
        json cells = json::array();
        for (std::size_t id : ids) {
            const auto r = std::find(rows.begin(), rows.end(), curves[id]["src"].get<std::string>()) - rows.begin();
            const auto k = std::find(cols.begin(), cols.end(), curves[id]["dst"].get<std::string>()) - cols.begin();
            cells.push_back({r, k, id});
        }
        const json& first = curves[ids.front()];
        const std::string params = params_without_numa(first["params"]);
        std::string title = std::string(first["method"]) + (params.empty() ? "" : " (" + params + ")");
        title = with_file(first, files, title);
        out.push_back({{"title", title}, {"rows", rows}, {"cols", cols}, {"sizes", sizes}, {"cells", cells}});
    }
    return out;
}

json report_model(const std::vector<ReportInput>& inputs, const ReportOptions& options) {
    json model = {{"files", json::array()}, {"curves", json::array()}};
    std::vector<MethodCatalog> catalogs;
    for (const ReportInput& input : inputs) catalogs.push_back(catalog_for(input.results.meta));
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        json errors = json::array();
        for (const Record& r : inputs[f].results.records)
            if (r.status != "ok") errors.push_back({r.key, r.error});
        model["files"].push_back({{"name", inputs[f].name}, {"run", run_rows(inputs[f].results, inputs[f].graph)},
                                  {"vertices", inputs[f].graph.vertices().size()},
                                  {"errors", errors}});
        for (const Record& r : inputs[f].results.records) {
            // Their points lie along other axes: the GPU memory section draws them.
            // So do the CPU latency and mix records: the CPU memory section draws them.
            const MethodRow* row = catalogs[f].find(r.method);
            if (in_family(row, MethodFamily::GpuMemory) || analyze::in_cpu_section(row)) continue;
            json c = curve_json(r, row, inputs[f].graph, options.raw);
            c["file"] = f;
            model["curves"].push_back(std::move(c));
        }
    }
    model["classes"] = classes_json(inputs, model["curves"]);
    json groups = comparison_groups(model["curves"], catalogs);
    // Legend labels name the file when several are overlaid.
    const auto files = file_names(inputs);
    for (auto& g : groups)
            for (auto& c : g["curves"]) c["label"] = with_file(model["curves"][c["id"].get<std::size_t>()], files, c["label"]);
    mark_measured_as(groups, model["curves"]);
    json small = small_transfer_charts(model["curves"]);
    for (auto& g : small)
        for (auto& c : g["curves"]) c["label"] = with_file(model["curves"][c["id"].get<std::size_t>()], files, c["label"]);
    model["groups"] = std::move(groups);
    model["small"] = std::move(small);
    model["heatmaps"] = heatmaps(model["curves"], inputs);
    model["analysis"] = analysis_json(inputs, model["curves"]);
    model["gpumem"] = gpumem_model(inputs);
    model["cpu"] = cpu_model(inputs);
    model["raw"] = options.raw;
    return model;
}

}  // namespace hwcomm::report_html
