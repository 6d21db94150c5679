#include "classes/member_routes.hpp"

#include <algorithm>

namespace hwcomm {

namespace {

std::vector<const Vertex*> every_gpu(const Graph& graph) {
    std::vector<const Vertex*> with_ordinal;
    for (const Vertex* v : graph.of_kind(VertexKind::Gpu))
        if (v->gpu && v->gpu->cuda_ordinal >= 0) with_ordinal.push_back(v);
    if (with_ordinal.empty()) return graph.of_kind(VertexKind::Gpu);
    std::stable_sort(with_ordinal.begin(), with_ordinal.end(), [](const Vertex* a, const Vertex* b) {
        return a->gpu->cuda_ordinal < b->gpu->cuda_ordinal;
    });
    return with_ordinal;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + 1)
        out.push_back(text.substr(start, at - start));
    out.push_back(text.substr(start));
    return out;
}

}  // namespace

bool is_group_endpoint(const std::string& id) {
    return id.rfind("gpu*", 0) == 0 || id.find('+') != std::string::npos;
}

std::optional<std::vector<const Vertex*>> endpoint_vertices(const Graph& graph, const std::string& id) {
    if (id.rfind("gpu*", 0) == 0) {
        auto gpus = every_gpu(graph);
        if (id.size() > 4) {  // "gpu*-gpu1": every GPU but those named
            if (id[4] != '-') return std::nullopt;
            for (const std::string& name : split(id.substr(5), '-')) {
                const Vertex* v = graph.find(name);
                if (!v) return std::nullopt;
                std::erase(gpus, v);
            }
        }
        if (gpus.empty()) return std::nullopt;
        return gpus;
    }
    std::vector<const Vertex*> out;
    for (const std::string& name : split(id, '+')) {
        const Vertex* v = graph.find(name);
        if (!v) return std::nullopt;
        out.push_back(v);
    }
    return out;
}

std::optional<std::vector<MemberRoute>> member_routes(const Graph& graph, const std::string& src,
                                                      const std::string& dst) {
    const auto from = endpoint_vertices(graph, src);
    const auto to = endpoint_vertices(graph, dst);
    if (!from || !to) return std::nullopt;
    std::vector<MemberRoute> out;
    if (from->size() == 1 && to->size() == 1) return std::vector<MemberRoute>{{from->front(), to->front()}};
    if (from->size() > 1 && to->size() > 1) {
        if (from->size() != to->size()) return std::nullopt;
        for (std::size_t i = 0; i < from->size(); ++i) out.push_back({(*from)[i], (*to)[i]});
    } else {
        for (const Vertex* s : *from)
            for (const Vertex* d : *to) out.push_back({s, d});
    }
    std::erase_if(out, [](const MemberRoute& r) { return r.src == r.dst; });
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace hwcomm
