#include "io/fingerprint.hpp"

#include <vector>

namespace hwcomm {

using nlohmann::json;

json machine_fingerprint(const Graph& graph, const std::string& cpu_model) {
    json numa = json::array();
    for (const Vertex* v : graph.of_kind(VertexKind::NumaNode))
        numa.push_back({{"id", v->id}, {"cpuset", v->numa ? v->numa->cpuset : ""}});
    json gpus = json::array();
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        gpus.push_back({{"id", v->id},
                        {"uuid", v->gpu ? v->gpu->uuid : ""},
                        {"pci", v->pci ? v->pci->to_string() : ""}});
    return {{"cpu_model", cpu_model}, {"numa_nodes", std::move(numa)}, {"gpus", std::move(gpus)}};
}

namespace {

std::string field(const json& entry, const char* key) {
    return entry.is_object() ? entry.value(key, "") : "";
}

std::string describe_gpu(const json& g) {
    std::string s = field(g, "id");
    for (const char* k : {"pci", "uuid"})
        if (!field(g, k).empty()) s += " " + field(g, k);
    return s;
}

bool same_gpu(const json& a, const json& b) {
    return field(a, "uuid") == field(b, "uuid") && field(a, "pci") == field(b, "pci");
}

// The first entry of `of` with no equal entry in `in`.
const json* first_absent(const json& of, const json& in, bool (*same)(const json&, const json&)) {
    for (const auto& a : of) {
        bool found = false;
        for (const auto& b : in) found = found || same(a, b);
        if (!found) return &a;
    }
    return nullptr;
}

std::string plural(std::size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string compare_gpus(const json& here, const json& file) {
    if (here.size() != file.size()) {
        std::string s = "this machine has " + plural(here.size(), "GPU") + ", the file was made on one with " +
                        std::to_string(file.size());
        if (const json* g = first_absent(here, file, same_gpu)) return s + " (" + describe_gpu(*g) + " absent there)";
        if (const json* g = first_absent(file, here, same_gpu)) return s + " (" + describe_gpu(*g) + " absent here)";
        return s;
    }
    for (std::size_t i = 0; i < here.size(); ++i)
        if (!same_gpu(here[i], file[i]) || field(here[i], "id") != field(file[i], "id"))
            return "GPU " + std::to_string(i) + " here is " + describe_gpu(here[i]) + ", in the file " +
                   describe_gpu(file[i]);
    return "";
}

std::string compare_numa(const json& here, const json& file) {
    if (here.size() != file.size())
        return "this machine has " + plural(here.size(), "NUMA node") + ", the file was made on one with " +
               std::to_string(file.size());
    for (std::size_t i = 0; i < here.size(); ++i)
        if (field(here[i], "id") != field(file[i], "id") || field(here[i], "cpuset") != field(file[i], "cpuset"))
            return "NUMA node " + field(here[i], "id") + " has CPUs " + field(here[i], "cpuset") +
                   " here, the file's " + field(file[i], "id") + " had " + field(file[i], "cpuset");
    return "";
}

json list_of(const json& fp, const char* key) {
    return fp.is_object() && fp.contains(key) && fp.at(key).is_array() ? fp.at(key) : json::array();
}

}  // namespace

std::string fingerprint_difference(const json& here, const json& file) {
    if (!file.is_object() || file.empty()) return "the file has no machine fingerprint (made by an older hwcomm)";
    if (std::string d = compare_gpus(list_of(here, "gpus"), list_of(file, "gpus")); !d.empty()) return d;
    if (std::string d = compare_numa(list_of(here, "numa_nodes"), list_of(file, "numa_nodes")); !d.empty()) return d;
    const std::string a = here.value("cpu_model", ""), b = file.value("cpu_model", "");
    if (a != b) return "this machine's CPU is '" + a + "', the file's was '" + b + "'";
    return "";
}

}  // namespace hwcomm
