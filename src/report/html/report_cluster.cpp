// The report's cluster section: for each cluster input, its nodes (host,
// status, NIC used) and what `hwcomm analyze` flags (nodes and pairs below
// their peers' median), as static HTML: nothing for the page script to do.
#include <cstdio>
#include <exception>
#include <sstream>

#include "analyze/cluster.hpp"
#include "report/html/html_escape.hpp"
#include "report/html/html_page.hpp"
#include "measure/link_text.hpp"

namespace hwcomm::report_html {

namespace {

void nodes_table(const analyze::ClusterAnalysis& a, std::ostream& out) {
    out << "<table class=\"cluster-nodes\"><thead><tr><th>node</th><th>rank</th><th>host</th><th>status</th>"
           "<th>NIC used</th><th>records (failed)</th></tr></thead><tbody>";
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const analyze::ClusterNodeState& s = a.nodes[i];
        const ClusterNodeInfo& n = a.cluster.nodes[i];
        out << "<tr><td>" << html_escape(s.name) << "</td><td>" << (n.rank < 0 ? "?" : std::to_string(n.rank))
            << "</td><td>" << html_escape(n.hostname) << "</td><td>"
            << html_escape(s.status == "ok" ? std::string("ok") : "error: " + s.error) << "</td><td>"
            << html_escape(n.nic_used.empty() ? "unknown" : n.nic_used) << "</td><td>" << s.records << " ("
            << s.error_records << ")</td></tr>";
    }
    out << "</tbody></table>";
}

void flags_table(const analyze::ClusterAnalysis& a, std::ostream& out) {
    out << "<table class=\"cluster-flags\"><thead><tr><th>node or pair</th><th>path</th><th>GB/s</th>"
           "<th>median GB/s</th><th>below</th></tr></thead><tbody>";
    for (const auto* flags : {&a.node_flags, &a.pair_flags})
        for (const analyze::ClusterDeviation& d : *flags)
            out << "<tr><td>" << html_escape(d.who) << "</td><td>" << html_escape(d.path.label()) << "</td><td>"
                << format_fixed(d.gbps, 2) << "</td><td>" << format_fixed(d.median_gbps, 2) << "</td><td>" << format_fixed(d.below * 100, 1)
                << "%</td></tr>";
    if (a.node_flags.empty() && a.pair_flags.empty())
        out << "<tr><td colspan=\"5\">none: no node or pair is more than " << format_fixed(a.threshold * 100, 0)
            << "% below its peers</td></tr>";
    out << "</tbody></table>";
}

}  // namespace

std::string cluster_section_html(const std::vector<ReportInput>& inputs) {
    std::ostringstream out;
    for (const ReportInput& input : inputs) {
        try {
            const auto cluster = cluster_section_of(input.results);
            if (!cluster) continue;
            const analyze::ClusterAnalysis a = analyze::analyze_cluster(input.name, input.results, *cluster);
            out << "<figure class=\"cluster\" data-file=\"" << html_escape(input.name) << "\"><figcaption>"
                << html_escape(input.name) << ": " << a.nodes.size() << " nodes"
                << (cluster->shared_host ? " (ranks shared a host: inter-node numbers are shared-memory transport, "
                                           "not a network)"
                                         : "")
                << "</figcaption>";
            nodes_table(a, out);
            flags_table(a, out);
            out << "</figure>";
        } catch (const std::exception& e) {  // a malformed cluster section: said, not fatal to the page
            out << "<p>" << html_escape(input.name) << ": cluster section unreadable (" << html_escape(e.what()) << ")</p>";
        }
    }
    const std::string body = out.str();
    if (body.empty()) return "";
    return "<section id=\"cluster\"><h2>The cluster</h2><p class=\"caption\">Each node of an MPI run, and the nodes "
           "and node pairs whose large-transfer bandwidth on a path is more than " +
           format_fixed(analyze::kClusterDefaultThreshold * 100, 0) +
           "% below the median of their peers (as <code>hwcomm analyze</code> prints them).</p>" + body +
           "</section>\n";
}

}  // namespace hwcomm::report_html
