#include "cli/predict_transfers.hpp"

#include <cstdio>
#include <iostream>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "cli/transfer_sets_cli.hpp"
#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "model/predict.hpp"

namespace hwcomm::cli {

namespace {

// The measured point of the same set at the same size, if any file holds it.
struct Measured {
    std::string key, file;
    const Point* point = nullptr;
};

std::optional<Measured> find_measured(const std::vector<model::NamedResults>& inputs, const std::string& key,
                                      std::uint64_t bytes) {
    for (const auto& in : inputs)
        if (const Record* r = in.file.find(key); r && r->status == "ok")
            for (const Point& p : r->points)
                if (p.bytes == bytes && p.status == "ok" && p.axes.empty()) return Measured{key, in.path, &p};
    return std::nullopt;
}

double lane_measured(const Point& p, const std::string& label) {
    for (const LanePoint& l : p.lanes)
        if (l.label == label) return l.bandwidth_gbps;
    return 0;
}

std::vector<model::Query> queries_of(const ResolvedSet& set, std::uint64_t bytes, const std::string& source) {
    std::vector<model::Query> qs;
    for (const ResolvedTransfer& t : set.transfers) {
        const auto solo = model::solo_equivalent(t.lane());
        if (!solo)
            throw UsageError(source + ":" + std::to_string(t.line.line) + ": " + t.line.executor_text() + " " +
                             t.label + " stands for no single transfer the model has curves of");
        qs.push_back({solo->method, solo->params, t.src->id, t.dst->id, bytes});
    }
    return qs;
}

std::string gbps(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

nlohmann::json lane_json(const ResolvedTransfer& t, const model::Answer& a, const std::optional<Measured>& m) {
    nlohmann::json j{{"label", t.label},
                     {"line", t.line.line},
                     {"executor", t.line.executor_text()},
                     {"predicted_as", a.query.text()},
                     {"basis", a.basis},
                     {"gbps", a.gbps},
                     {"gbps_interval", {a.gbps_low, a.gbps_high}},
                     {"seconds", a.seconds},
                     {"limited_by", a.shared_edge.empty() ? a.bottleneck : a.shared_edge},
                     {"notes", a.notes}};
    if (m) j["measured_gbps"] = lane_measured(*m->point, t.label);
    return j;
}

}  // namespace

int predict_transfer_sets(const model::Model& m, const Graph& graph, const std::vector<model::NamedResults>& inputs,
                          const PredictSetsArgs& args) {
    const TransferSetFile file = load_transfer_sets(args.transfers, graph);
    TransferSetMachine machine;
    machine.cuda = machine.tma = true;  // nothing is measured: any executor the model can stand for
    machine.free_bytes = graph_memory_bytes;
    const auto sets = resolve_transfer_sets(graph, file, machine);
    nlohmann::json out{{"schema", "hwcomm.predict-sets/v1"}, {"source", file.source}, {"sets", nlohmann::json::array()}};
    std::string text;
    for (const ResolvedSet& set : sets) {
        const std::uint64_t bytes = set.bytes ? set.bytes : args.bytes.value_or(0);
        if (!bytes)
            throw UsageError(file.source + ":" + std::to_string(set.line) + ": set '" + set.name +
                             "' moves the run's sizes: give --size for the prediction");
        const std::string key =
            record_key(method_name::kTransferSet, set.src_id, set.dst_id, {{TransferSetParam::key, set.name}});
        const auto measured = find_measured(inputs, key, bytes);
        // Never compare a prediction with the record it was fitted on.
        const bool held_out = measured && m.find(key);
        const model::Model used = held_out ? model::without_records(m, {key}) : m;
        const model::SetAnswer a = model::predict_set(used, &graph, queries_of(set, bytes, file.source));
        nlohmann::json sj{{"name", set.name},
                          {"line", set.line},
                          {"bytes_per_transfer", bytes},
                          {"transfers", set.transfers.size()},
                          {"record_key", key},
                          {"predicted", {{"gbps", a.gbps}, {"gbps_interval", {a.gbps_low, a.gbps_high}},
                                         {"seconds", a.seconds}}},
                          {"held_out", held_out},
                          {"lanes", nlohmann::json::array()}};
        text += "set " + set.name + " (" + std::to_string(set.transfers.size()) + " x " + format_size(bytes) +
                ", " + file.source + ":" + std::to_string(set.line) + "): predicted " + gbps(a.gbps) + " GB/s [" +
                gbps(a.gbps_low) + ", " + gbps(a.gbps_high) + "] together (bytes over the slowest transfer)";
        if (measured) {
            const double ratio = measured->point->bandwidth_gbps > 0 ? a.gbps / measured->point->bandwidth_gbps : 0;
            sj["measured"] = {{"gbps", measured->point->bandwidth_gbps}, {"file", measured->file}};
            sj["predicted_over_measured"] = ratio;
            char buf[96];
            std::snprintf(buf, sizeof buf, "; measured %.1f GB/s, predicted/measured %.3f", measured->point->bandwidth_gbps,
                          ratio);
            text += buf + std::string(held_out ? " (its record held out of the model)" : "");
        } else {
            sj["measured"] = nullptr;
        }
        text += "\n";
        for (std::size_t i = 0; i < set.transfers.size(); ++i) {
            const ResolvedTransfer& t = set.transfers[i];
            const model::Answer& la = a.lanes[i];
            sj["lanes"].push_back(lane_json(t, la, measured));
            text += "  " + t.label + " " + t.line.executor_text() + ": " + gbps(la.gbps) + " GB/s [" + gbps(la.gbps_low) +
                    ", " + gbps(la.gbps_high) + "] as " + la.query.method + " (" + la.basis + ")";
            if (measured) text += ", measured " + gbps(lane_measured(*measured->point, t.label)) + " GB/s";
            if (!la.shared_edge.empty()) text += ", limited by its share of " + la.shared_edge;
            text += "\n";
        }
        out["sets"].push_back(std::move(sj));
    }
    if (args.json) std::cout << out.dump(1) << "\n";
    else std::cout << text;
    return 0;
}

}  // namespace hwcomm::cli
