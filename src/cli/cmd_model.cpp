// hwcomm model fit RESULTS... -o model.json [--force]: the study's model
// M(C, U) fitted from results files (docs/model.md).
// hwcomm model check RESULTS... [--min-size 64K] [--worst N] [--json]: how
// well it predicts sizes, pairs, concurrent lanes, whole load levels and class
// members it was not shown.
#include <iostream>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/model_inputs.hpp"
#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "model/check.hpp"
#include "model/fit.hpp"

namespace hwcomm::cli {

namespace {

struct FitArgs {
    std::vector<std::string> files;
    std::string output, node;
    bool force = false;
};

struct CheckArgs {
    std::vector<std::string> files;
    std::string node;
    std::string min_size = "64K", lane_min_size = "64M";
    std::size_t worst = 5;
    bool json = false;
};

int run_fit(const FitArgs& a) {
    const auto inputs = load_model_inputs(a.files, "model fit", a.node);
    const model::Model m = model::fit_model(inputs);
    model::save_model(a.output, m, a.force);
    std::cerr << "model fit: " << m.curves.size() << " curves, " << m.shared_edges.size() << " shared edge(s) from "
              << m.sources.size() << " file(s) -> " << a.output << "\n";
    return 0;
}

int run_check(const CheckArgs& a) {
    const auto inputs = load_model_inputs(a.files, "model check", a.node);
    const auto report = model::check_model(inputs, parse_size(a.min_size), parse_size(a.lane_min_size));
    if (a.json)
        std::cout << model::check_to_json(report).dump(1) << "\n";
    else
        std::cout << model::format_check(report, a.worst);
    return 0;
}

}  // namespace

void add_model_command(CLI::App& app, Action& action) {
    auto* sub = app.add_subcommand("model", "The study's model M(C, U): fit it from results files, check it");
    sub->require_subcommand(1);
    auto fit = std::make_shared<FitArgs>();
    auto* f = sub->add_subcommand("fit", "Fit time-vs-size curves, regimes and shared-edge capacity curves -> model JSON");
    f->add_option("files", fit->files, "results files (.json or .json.gz) of one machine")->required();
    f->add_option("-o,--output", fit->output, "the model file to write")->required();
    f->add_option("--node", fit->node, "cluster results files: the model of this node alone");
    f->add_flag("--force", fit->force, "overwrite an existing model file");
    f->callback([&action, fit] { action = [fit] { return run_fit(*fit); }; });
    auto check = std::make_shared<CheckArgs>();
    auto* c = sub->add_subcommand(
        "check", "Errors on what it was not shown: sizes, pairs, records, whole load levels, class members");
    c->add_option("files", check->files, "results files (.json or .json.gz) of one machine")->required();
    c->add_option("--node", check->node, "cluster results files: check this node alone");
    c->add_option("--min-size", check->min_size, "smallest size the size errors count (default 64K)");
    c->add_option("--lane-min-size", check->lane_min_size, "smallest size of the concurrency checks (default 64M)");
    c->add_option("--worst", check->worst, "worst cases listed per check (default 5)");
    c->add_flag("--json", check->json, "every case as JSON (schema hwcomm.model-check/v1)");
    c->callback([&action, check] { action = [check] { return run_check(*check); }; });
}

}  // namespace hwcomm::cli
