#include "discover/valid_text.hpp"

#include <utility>

#include "core/utf8.hpp"

namespace hwcomm {

namespace {

class TextFixer {
public:
    // Text shown to people: invalid bytes become U+FFFD, the original is noted.
    void text(std::string& s, const std::string& where) {
        if (is_valid_utf8(s)) return;
        notes_.push_back(where + " is not valid UTF-8: invalid bytes replaced by U+FFFD (original \"" +
                         escape_bytes(s) + "\")");
        s = to_valid_utf8(s);
    }
    // Ids: "\xNN" keeps two ids that differ only in invalid bytes apart.
    void id(std::string& s) {
        if (!is_valid_utf8(s)) s = escape_bytes(s);
    }
    std::vector<std::string>& notes() { return notes_; }

private:
    std::vector<std::string> notes_;
};

bool all_valid(const Graph& graph) {
    for (const Vertex& v : graph.vertices()) {
        if (!is_valid_utf8(v.id) || !is_valid_utf8(v.name)) return false;
        for (const auto& [key, value] : v.attrs)
            if (!is_valid_utf8(key) || !is_valid_utf8(value)) return false;
        if (v.gpu && (!is_valid_utf8(v.gpu->model) || !is_valid_utf8(v.gpu->uuid) ||
                      !is_valid_utf8(v.gpu->cpu_affinity)))
            return false;
        if (v.numa && !is_valid_utf8(v.numa->cpuset)) return false;
    }
    for (const Edge& e : graph.edges())
        if (!is_valid_utf8(e.a) || !is_valid_utf8(e.b) || !is_valid_utf8(e.source) ||
            (e.nvlink && !is_valid_utf8(e.nvlink->version)))
            return false;
    for (const std::string& n : graph.notes)
        if (!is_valid_utf8(n)) return false;
    for (const auto& [key, value] : graph.provenance)
        if (!is_valid_utf8(key) || !is_valid_utf8(value)) return false;
    return true;
}

}  // namespace

int make_graph_text_valid(Graph& graph) {
    if (all_valid(graph)) return 0;  // the usual case: no copy of the graph
    TextFixer fix;
    Graph out;
    for (Vertex v : graph.vertices()) {
        fix.id(v.id);
        const std::string where = "vertex " + v.id;
        fix.text(v.name, where + " name");
        std::map<std::string, std::string> attrs;
        for (const auto& [original_key, original_value] : v.attrs) {
            std::string key = original_key, value = original_value;
            fix.id(key);
            fix.text(value, where + " attribute " + key);
            attrs.emplace(std::move(key), std::move(value));
        }
        v.attrs = std::move(attrs);
        if (v.gpu) {
            fix.text(v.gpu->model, where + " GPU model");
            fix.text(v.gpu->uuid, where + " GPU UUID");
            fix.text(v.gpu->cpu_affinity, where + " CPU affinity");
        }
        if (v.numa) fix.text(v.numa->cpuset, where + " cpuset");
        out.add_vertex(std::move(v));
    }
    for (Edge e : graph.edges()) {
        fix.id(e.a);
        fix.id(e.b);
        fix.text(e.source, "edge " + e.a + " - " + e.b + " source");
        if (e.nvlink) fix.text(e.nvlink->version, "edge " + e.a + " - " + e.b + " NVLink version");
        out.add_edge(std::move(e));
    }
    for (std::string note : graph.notes) {
        fix.text(note, "a discovery note");
        out.notes.push_back(std::move(note));
    }
    for (const auto& [original_key, original_value] : graph.provenance) {
        std::string key = original_key, value = original_value;
        fix.id(key);
        fix.text(value, "provenance " + key);
        out.provenance.emplace(std::move(key), std::move(value));
    }
    const int replaced = static_cast<int>(fix.notes().size());
    for (std::string& n : fix.notes()) out.notes.push_back(std::move(n));
    graph = std::move(out);
    return replaced;
}

}  // namespace hwcomm
