// hwcomm predict (--model M.json | RESULTS...) --method M[:k=v,...] --src A
// --dst B --size S [--while 'M2 C->D S2']... [--json], or --transfers FILE
// [--size S] (predict_transfers.hpp): predicted time and
// bandwidth with an interval, the regime, the bottleneck edge and the records
// the answer rests on; pairs never measured are extrapolated from the graph;
// under load, every shared edge with its curve, counts and records.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/model_inputs.hpp"
#include "cli/predict_transfers.hpp"
#include "measure/byte_size.hpp"
#include "core/error.hpp"
#include "core/graph_json.hpp"
#include "model/predict.hpp"

namespace hwcomm::cli {

namespace {

struct PredictArgs {
    std::string model_file;
    std::vector<std::string> files;
    std::string method, src, dst, size;
    std::vector<std::string> whiles;
    std::string transfers;  // --transfers FILE|preset: every set of the file instead of one transfer
    bool json = false;
};

nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json answer_json(const model::Answer& a) {
    nlohmann::json j{{"transfer", a.query.text()}, {"method", a.query.method}, {"src", a.query.src},
                     {"dst", a.query.dst}, {"bytes", a.query.bytes}, {"params", a.params}, {"basis", a.basis},
                     {"seconds", a.seconds}, {"seconds_interval", {a.seconds_low, a.seconds_high}},
                     {"gbps", a.gbps}, {"gbps_interval", {a.gbps_low, a.gbps_high}}, {"regime", a.regime},
                     {"bottleneck", a.bottleneck}, {"limit", a.limit_what}, {"limit_gbps", a.limit_gbps},
                     {"rests_on", a.rests_on}, {"notes", a.notes}};
    if (!a.shared.empty()) {
        j["under_load"] = {{"alone_gbps", a.alone_gbps}, {"limited_by", a.shared_edge},
                           {"shared_edges", nlohmann::json::array()}};
        for (const auto& e : a.shared) {
            nlohmann::json curves = nlohmann::json::array();
            for (const auto& c : e.curves)
                curves.push_back({{"kind", c.kind}, {"family", "smooth-min"}, {"capacity_gbps", c.curve.capacity_gbps},
                                  {"sharpness", c.curve.sharpness}, {"sharpness_fitted", c.curve.sharpness_fitted},
                                  {"rel_rms", c.curve.rel_rms}});
            j["under_load"]["shared_edges"].push_back(
                {{"edge", e.edge}, {"what", e.what}, {"stated_gbps", e.stated_gbps}, {"transfers", e.transfers},
                 {"kinds", e.kinds}, {"demand_gbps", e.demand_gbps}, {"basis", e.basis},
                 {"carried_gbps", finite_or_null(e.carried_gbps)},
                 {"carried_interval", {finite_or_null(e.carried_low), finite_or_null(e.carried_high)}},
                 {"curve", e.curve}, {"counts", e.counts}, {"records", e.records}, {"extrapolated", e.extrapolated},
                 {"range", e.range}, {"notes", e.notes}, {"curves", std::move(curves)}});
        }
    }
    return j;
}

std::string rate_text(double gbps) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.1f", gbps);
    return std::isfinite(gbps) ? buf : "unbounded";
}

std::string shared_text(const model::SharedEdgeAnswer& e) {
    std::string out = "  shared: " + e.edge + " (" + e.what +
                      (e.stated_gbps > 0 ? ", stated " + rate_text(e.stated_gbps) + " GB/s" : ", no stated rate") +
                      "): " + std::to_string(e.transfers) + " transfers (" + e.kinds + ") ask " +
                      rate_text(e.demand_gbps) + " GB/s alone; it carries " + rate_text(e.carried_gbps) + " GB/s [" +
                      rate_text(e.carried_low) + ", " + rate_text(e.carried_high) + "]" +
                      (e.range.empty() ? "" : ", " + e.range) + "\n";
    out += "    " + std::string(e.basis == "fitted" ? "curve: " : "unmeasured: ") + e.curve + "\n";
    if (!e.records.empty()) {
        // The JSON lists them all; a few name the evidence here.
        std::string list;
        for (std::size_t i = 0; i < std::min<std::size_t>(3, e.records.size()); ++i)
            list += (i ? ", " : "") + e.records[i];
        if (e.records.size() > 3) list += " and " + std::to_string(e.records.size() - 3) + " more";
        out += "    rests on " + std::to_string(e.records.size()) + " record(s): " + list + "\n";
    }
    for (const auto& n : e.notes) out += "    note: " + n + "\n";
    return out;
}

std::string answer_text(const model::Answer& a, bool first) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s%s: %.4g s [%.4g, %.4g] = %.2f GB/s [%.2f, %.2f]  %s  %s\n",
                  first ? "" : "while ", a.query.text().c_str(), a.seconds, a.seconds_low, a.seconds_high, a.gbps,
                  a.gbps_low, a.gbps_high, a.regime.c_str(), a.basis.c_str());
    std::string out = buf;
    if (!a.bottleneck.empty()) {
        std::snprintf(buf, sizeof buf, "  bottleneck: %s (%s, %.1f GB/s)\n", a.bottleneck.c_str(),
                      a.limit_what.c_str(), a.limit_gbps);
        out += buf;
    }
    if (!a.shared.empty()) {
        std::snprintf(buf, sizeof buf, "  under load: alone %.2f GB/s; ", a.alone_gbps);
        out += buf + (a.shared_edge.empty() ? std::string("no shared edge limits it")
                                            : "limited by its fair share of " + a.shared_edge) + "\n";
        for (const auto& e : a.shared) out += shared_text(e);
    }
    for (const auto& r : a.rests_on) out += "  rests on: " + r + "\n";
    for (const auto& n : a.notes) out += "  note: " + n + "\n";
    return out;
}

int run_predict(const PredictArgs& a) {
    if (a.model_file.empty() == a.files.empty())
        throw UsageError("predict: give either --model FILE or results files, not both or neither");
    if (!a.transfers.empty() && (!a.method.empty() || !a.src.empty() || !a.dst.empty() || !a.whiles.empty()))
        throw UsageError("predict: --transfers predicts the sets of its file; drop --method, --src, --dst and --while");
    if (a.transfers.empty() && (a.method.empty() || a.src.empty() || a.dst.empty() || a.size.empty()))
        throw UsageError("predict: give --method, --src, --dst and --size (or --transfers FILE)");
    if (!a.size.empty()) {
        try {  // named here, before any file is read; the transfer's parser repeats the check
            if (parse_size(a.size) == 0) throw UsageError("'" + a.size + "' is 0 bytes; give a size above 0");
        } catch (const UsageError& e) {
            throw UsageError(std::string("predict: --size: ") + e.what());
        }
    }
    const auto inputs = a.files.empty() ? std::vector<model::NamedResults>{} : load_model_inputs(a.files, "predict");
    const model::Model m = a.model_file.empty() ? model::fit_model(inputs) : model::load_model(a.model_file);
    std::optional<Graph> graph;
    if (!m.topology.empty()) {
        try {
            graph = graph_from_json(m.topology);
        } catch (const std::exception& e) {
            throw UsageError(std::string("predict: the model's topology does not parse: ") + e.what());
        }
    }
    if (!a.transfers.empty()) {
        if (!graph) throw UsageError("predict --transfers: the model has no topology to resolve the file's endpoints on");
        PredictSetsArgs sets{a.transfers, std::nullopt, a.json};
        if (!a.size.empty()) sets.bytes = parse_size(a.size);
        return predict_transfer_sets(m, *graph, inputs, sets);
    }
    std::vector<model::Query> qs{model::parse_transfer(a.method + " " + a.src + "->" + a.dst + " " + a.size)};
    for (const auto& w : a.whiles) qs.push_back(model::parse_transfer(w));
    const auto answers = model::predict_concurrent(m, graph ? &*graph : nullptr, qs);
    if (a.json) {
        nlohmann::json j{{"schema", "hwcomm.predict/v2"}, {"prediction", answer_json(answers[0])}};
        j["while"] = nlohmann::json::array();
        for (std::size_t i = 1; i < answers.size(); ++i) j["while"].push_back(answer_json(answers[i]));
        std::cout << j.dump(1) << "\n";
    } else {
        for (std::size_t i = 0; i < answers.size(); ++i) std::cout << answer_text(answers[i], i == 0);
    }
    return 0;
}

}  // namespace

void add_predict_command(CLI::App& app, Action& action) {
    auto args = std::make_shared<PredictArgs>();
    auto* sub = app.add_subcommand("predict", "How long a transfer takes here, alone or while others run");
    sub->add_option("files", args->files, "results files to fit on the fly (instead of --model)");
    sub->add_option("--model", args->model_file, "a model file from `hwcomm model fit`");
    sub->add_option("--method", args->method, "method, optionally with parameters: memcpy-h2d:host_mem=pinned");
    sub->add_option("--src", args->src, "source vertex id (numa0, gpu1)");
    sub->add_option("--dst", args->dst, "destination vertex id");
    sub->add_option("--size", args->size, "bytes per transfer (64M, 1G); with --transfers, for sets without a size");
    sub->add_option("--transfers", args->transfers,
                    "every set of a transfer-set FILE (or preset:NAME), beside its measured record when the results "
                    "files hold it (docs/transfers.md)");
    sub->add_option("--while", args->whiles, "a concurrent transfer 'METHOD[:k=v] SRC->DST SIZE' (repeatable)");
    sub->add_flag("--json", args->json, "JSON for programs (schema hwcomm.predict/v2)");
    sub->callback([&action, args] { action = [args] { return run_predict(*args); }; });
}

}  // namespace hwcomm::cli
