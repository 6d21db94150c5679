#include "methods/transfers/transfer_presets.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "core/paths.hpp"
#include "measure/byte_size.hpp"
#include "methods/under_load.hpp"

namespace hwcomm {

namespace {

struct PresetOptions {
    std::string name;
    std::string executor = "ce";
    std::string size = "sweep";
};

PresetOptions parse_spec(const std::string& spec) {
    std::vector<std::string> parts;
    std::stringstream in(spec.substr(std::string(kPresetPrefix).size()));
    for (std::string p; std::getline(in, p, ':');) parts.push_back(p);
    const auto& names = transfer_preset_names();
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    if (parts.empty() || std::find(names.begin(), names.end(), parts.front()) == names.end())
        throw UsageError("--transfers " + spec.substr(0, 80) + ": unknown preset (" + known + ")");
    PresetOptions o;
    o.name = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        if (p == "ce" || p == "sm" || p == "tma") {
            o.executor = p;
            continue;
        }
        try {
            (void)parse_size(p);
            o.size = p;
        } catch (const UsageError&) {
            throw UsageError("--transfers " + spec.substr(0, 80) + ": '" + p.substr(0, 40) +
                             "' is neither an executor (ce, sm, tma) nor a size (256M)");
        }
    }
    return o;
}

using Pairs = std::vector<std::pair<const Vertex*, const Vertex*>>;

Pairs all_to_all(const Graph& graph, const std::vector<const Vertex*>& gpus) {
    Pairs out;
    for (const Vertex* a : gpus)
        for (const Vertex* b : gpus)
            if (a != b && classify_path(graph, a->id, b->id).kind == PathClass::NvLink) out.push_back({a, b});
    return out;
}

Pairs ring(const std::vector<const Vertex*>& gpus) {
    Pairs out;
    for (std::size_t i = 0; i < gpus.size(); ++i) out.push_back({gpus[i], gpus[(i + 1) % gpus.size()]});
    return out;
}

Pairs bisection(const std::vector<const Vertex*>& gpus) {
    Pairs out;
    const std::size_t half = gpus.size() / 2;
    for (std::size_t i = 0; i < half; ++i) out.push_back({gpus[i], gpus[i + half]});
    for (std::size_t i = 0; i < half; ++i) out.push_back({gpus[i + half], gpus[i]});
    return out;
}

}  // namespace

bool is_transfer_preset(const std::string& arg) { return arg.rfind(kPresetPrefix, 0) == 0; }

const std::vector<std::string>& transfer_preset_names() {
    static const std::vector<std::string> names{"all-to-all", "ring", "bisection"};
    return names;
}

TransferSetFile preset_transfer_sets(const Graph& graph, const std::string& spec) {
    const PresetOptions o = parse_spec(spec);
    const std::vector<const Vertex*> gpus = load_gpus(graph);
    if (gpus.size() < 2)
        throw UsageError("--transfers " + spec.substr(0, 80) + ": needs two or more CUDA GPUs (" +
                         std::to_string(gpus.size()) + " here)");
    const Pairs pairs = o.name == "all-to-all" ? all_to_all(graph, gpus) : o.name == "ring" ? ring(gpus) : bisection(gpus);
    if (pairs.empty())
        throw UsageError("--transfers " + spec.substr(0, 80) + ": no two CUDA GPUs here share a direct (NVLink) link");
    std::string text = "set,executor,src,dst,size,host_mem\n";
    for (const auto& [a, b] : pairs) text += o.name + "," + o.executor + "," + a->id + "," + b->id + "," + o.size + ",\n";
    return parse_transfer_sets(text, spec);
}

}  // namespace hwcomm
