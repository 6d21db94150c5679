// Draws the laid-out topology as SVG (see topo_svg.hpp).
#include "report/html/topo_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "report/html/html_escape.hpp"
#include "report/html/topo_layout.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::report_html {

namespace {

constexpr double kMargin = 24;
constexpr double kArcRoom = 44;  // above the top row and below the last, for links drawn as arcs there
constexpr double kLegendHeight = 40;

std::string rate_text(double gbps) { return format_fixed(gbps, gbps < 10 ? 2 : 1) + " GB/s"; }

// Red (0 %) through amber to green (100 % and above) of the edge's own rate.
std::string fraction_colour(double fraction) {
    const double hue = 120.0 * std::clamp(fraction, 0.0, 1.0);
    return "hsl(" + format_fixed(hue, 0) + ",75%,38%)";
}

const char* fill_of(VertexKind kind) {
    switch (kind) {
        case VertexKind::Package: return "#d6e2f3";
        case VertexKind::NumaNode: return "#e2f0d9";
        case VertexKind::HostBridge:
        case VertexKind::PciBridge: return "#ececec";
        case VertexKind::Gpu: return "#c9e7a4";
        case VertexKind::NvSwitch:
        case VertexKind::NvSwitchFabric: return "#f6dfbf";
        case VertexKind::BlockDevice:
        case VertexKind::NetworkInterface: return "#eadcf2";
        case VertexKind::PciDevice: break;
    }
    return "#f7f7f7";
}

std::string short_name(const std::string& name) {
    return name.size() <= 26 ? name : name.substr(0, 25) + "\xE2\x80\xA6";  // ellipsis
}

struct EdgeStyle {
    std::string colour = "#9a9a9a";
    double width = 1.2;
    std::string dash;
};

EdgeStyle style_of(const Edge& edge, const EdgeMeasure* measure) {
    EdgeStyle style;
    if (edge.gbps_per_direction > 0) {
        style.colour = "#4a4a4a";
        style.width = 1.5 + std::log10(1 + edge.gbps_per_direction);
    }
    if (edge.kind == EdgeKind::NvLink) style.dash = "";
    if (edge.kind == EdgeKind::Smp) style.dash = "6 3";
    if (measure && edge.gbps_per_direction > 0) style.colour = fraction_colour(measure->gbps / edge.gbps_per_direction);
    return style;
}

void write_label(std::ostringstream& out, double x, double y, const char* anchor, const Edge& edge,
                 const EdgeMeasure* measure) {
    if (edge.gbps_per_direction <= 0) return;
    out << "<text class=\"edge-label\" x=\"" << format_fixed(x, 1) << "\" y=\"" << format_fixed(y, 1) << "\" text-anchor=\"" << anchor
        << "\"><tspan>" << rate_text(edge.gbps_per_direction) << "</tspan>";
    if (measure) {
        const double fraction = measure->gbps / edge.gbps_per_direction;
        out << "<tspan x=\"" << format_fixed(x, 1) << "\" dy=\"12\" fill=\"" << fraction_colour(fraction) << "\">"
            << rate_text(measure->gbps) << " (" << format_fixed(100 * fraction, 0) << "%)</tspan>";
    }
    out << "</text>";
}

}  // namespace

std::string topology_svg(const Graph& graph, const std::map<std::size_t, EdgeMeasure>& measured) {
    const TopoLayout layout = layout_topology(graph);
    const double w = TopoLayout::kBoxWidth, h = TopoLayout::kBoxHeight;
    // At least as wide as the legend; room for arcs above the top row and below the last.
    const double top = kMargin + kArcRoom, bottom = kArcRoom + kMargin + kLegendHeight;
    const double total_w = std::max(layout.width, 1000.0) + 2 * kMargin, total_h = top + layout.height + bottom;
    std::map<std::string, const NodeBox*> box_of;
    for (const NodeBox& b : layout.boxes) box_of[b.id] = &b;

    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"topology\" viewBox=\"0 0 " << format_fixed(total_w, 0) << ' '
        << format_fixed(total_h, 0) << "\" width=\"" << format_fixed(total_w, 0) << "\" height=\"" << format_fixed(total_h, 0)
        << "\" font-family=\"sans-serif\" font-size=\"11\">"
        << "<style>.edge-label{font-size:10px;paint-order:stroke;stroke:#fff;stroke-width:3px;fill:#333}"
           ".node text{pointer-events:none}</style>"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        << "<g transform=\"translate(" << kMargin << ',' << top << ")\">";

    const auto& edges = graph.edges();
    std::map<std::string, int> cross_links;  // links drawn outside the tree, per vertex
    for (std::size_t e = 0; e < edges.size(); ++e)
        if (!layout.edge_in_tree[e]) ++cross_links[edges[e].a], ++cross_links[edges[e].b];
    std::ostringstream labels;  // drawn after lines and boxes so nothing covers them
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto a = box_of.find(edges[e].a), b = box_of.find(edges[e].b);
        if (a == box_of.end() || b == box_of.end()) continue;
        const auto found = measured.find(e);
        const EdgeMeasure* measure = found == measured.end() ? nullptr : &found->second;
        const EdgeStyle style = style_of(edges[e], measure);
        const NodeBox& p = *a->second;
        const NodeBox& c = *b->second;
        std::string d;
        double lx, ly;
        const char* anchor = "start";
        if (layout.edge_in_tree[e]) {
            // Elbow: down from the parent, across, down into the child; label on the child's leg.
            const double px = p.x + w / 2, py = p.y + h, cx = c.x + w / 2, cy = c.y, mid = py + TopoLayout::kGapY / 3;
            d = "M" + format_fixed(px, 1) + ',' + format_fixed(py, 1) + "V" + format_fixed(mid, 1) + "H" + format_fixed(cx, 1) + "V" + format_fixed(cy, 1);
            lx = cx + 5;
            ly = mid + 16;
        } else if (p.row == c.row) {
            // Same row: an arc above (top row) or below the boxes.
            const double x1 = p.x + w / 2, x2 = c.x + w / 2;
            const bool above = p.row == 0;
            const double y = above ? p.y : p.y + h, bulge = above ? -TopoLayout::kGapY / 2 : TopoLayout::kGapY / 2;
            d = "M" + format_fixed(x1, 1) + ',' + format_fixed(y, 1) + "Q" + format_fixed((x1 + x2) / 2, 1) + ',' + format_fixed(y + 2 * bulge, 1) +
                ' ' + format_fixed(x2, 1) + ',' + format_fixed(y, 1);
            lx = (x1 + x2) / 2;
            ly = y + bulge + (above ? -6 : 10);
            anchor = "middle";
        } else {
            const NodeBox& upper = p.row < c.row ? p : c;
            const NodeBox& lower = p.row < c.row ? c : p;
            const double x1 = upper.x + w / 2, y1 = upper.y + h, x2 = lower.x + w / 2, y2 = lower.y;
            d = "M" + format_fixed(x1, 1) + ',' + format_fixed(y1, 1) + "L" + format_fixed(x2, 1) + ',' + format_fixed(y2, 1);
            // Label at the end that has this link to itself (a GPU, not the
            // switch or package its siblings share), so fanned links keep their
            // labels apart; left of the line, clear of the tree edge's label.
            const bool at_upper = cross_links[upper.id] <= cross_links[lower.id];
            ly = at_upper ? y1 + 14 : y2 - 26;
            lx = x1 + (x2 - x1) * (ly - y1) / (y2 - y1) + (at_upper ? 0 : -5);
            anchor = at_upper ? "middle" : "end";
        }
        out << "<path class=\"edge\" data-kind=\"" << to_string(edges[e].kind) << "\" d=\"" << d
            << "\" fill=\"none\" stroke=\"" << style.colour << "\" stroke-width=\"" << format_fixed(style.width, 1) << '"';
        if (!style.dash.empty()) out << " stroke-dasharray=\"" << style.dash << '"';
        out << "><title>" << html_escape(edges[e].a + " - " + edges[e].b + " (" + to_string(edges[e].kind) + ")");
        if (measure) out << html_escape(", best large-transfer bandwidth from " + measure->record_key);
        out << "</title></path>";
        write_label(labels, lx, ly, anchor, edges[e], measure);
    }
    for (std::size_t v = 0; v < graph.vertices().size(); ++v) {
        const Vertex& vertex = graph.vertices()[v];
        const NodeBox& b = layout.boxes[v];
        out << "<g class=\"node\" data-id=\"" << html_escape(vertex.id) << "\"><title>" << html_escape(vertex.name)
            << "</title><rect x=\"" << format_fixed(b.x, 1) << "\" y=\"" << format_fixed(b.y, 1) << "\" width=\"" << w
            << "\" height=\"" << h << "\" rx=\"5\" fill=\"" << fill_of(vertex.kind)
            << "\" stroke=\"#555\"/><text x=\"" << format_fixed(b.x + w / 2, 1) << "\" y=\"" << format_fixed(b.y + 18, 1)
            << "\" text-anchor=\"middle\" font-weight=\"bold\">" << html_escape(vertex.id) << "</text><text x=\""
            << format_fixed(b.x + w / 2, 1) << "\" y=\"" << format_fixed(b.y + 34, 1) << "\" text-anchor=\"middle\" fill=\"#444\">"
            << html_escape(short_name(vertex.name)) << "</text></g>";
    }
    out << labels.str();
    // Legend: the colour scale of measured edges.
    const double ly = layout.height + kArcRoom + 26;
    out << "<g class=\"legend\"><text x=\"0\" y=\"" << format_fixed(ly + 4, 1)
        << "\">Edge colour: measured large-transfer bandwidth / theoretical rate per direction</text>";
    for (int step = 0; step <= 10; ++step)
        out << "<rect x=\"" << 470 + step * 22 << "\" y=\"" << format_fixed(ly - 8, 1) << "\" width=\"22\" height=\"14\" fill=\""
            << fraction_colour(step / 10.0) << "\"/>";
    out << "<text x=\"466\" y=\"" << format_fixed(ly + 4, 1) << "\" text-anchor=\"end\">0%</text><text x=\"718\" y=\""
        << format_fixed(ly + 4, 1) << "\">100%</text><text x=\"760\" y=\"" << format_fixed(ly + 4, 1)
        << "\" fill=\"#666\">grey: not measured or no stated rate</text></g>";
    out << "</g></svg>";
    return out.str();
}

}  // namespace hwcomm::report_html
