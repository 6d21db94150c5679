#include "cli/transfer_sets_cli.hpp"

#include <sstream>

#include "catalog/method_names.hpp"
#include "catalog/method_params.hpp"
#include "core/input_file.hpp"
#include "core/results.hpp"
#include "measure/byte_size.hpp"
#include "methods/transfers/transfer_presets.hpp"

namespace hwcomm::cli {

namespace {

std::string record_key_of(const ResolvedSet& s) {
    return record_key(method_name::kTransferSet, s.src_id, s.dst_id, {{TransferSetParam::key, s.name}});
}

std::string size_text(const ResolvedSet& s) { return s.bytes ? format_size(s.bytes) : "the run's sizes"; }

}  // namespace

TransferSetFile load_transfer_sets(const std::string& arg, const Graph& graph) {
    if (is_transfer_preset(arg)) return preset_transfer_sets(graph, arg);
    return parse_transfer_sets(read_regular_input_file(arg, "transfer-set file", kMaxTransferSetFileBytes), arg);
}

std::string resolved_sets_text(const TransferSetFile& file, const std::vector<ResolvedSet>& sets) {
    std::ostringstream out;
    out << "transfer sets of " << file.source << ": " << sets.size() << " set(s), each one record of "
        << method_name::kTransferSet << ", its transfers started together\n";
    for (const ResolvedSet& s : sets) {
        out << "set " << s.name << " (line " << s.line << "): " << s.transfers.size() << " transfer(s), "
            << size_text(s) << "; record " << record_key_of(s) << "\n";
        for (const ResolvedTransfer& t : s.transfers) {
            out << "  " << t.label << "  " << t.line.executor_text() << " on " << t.on->id;
            for (const auto& [k, v] : t.lane().params)
                if (k != ExecutorParam::key) out << " " << k << "=" << v;
            out << "\n";
        }
    }
    out << "\n# the same as a file (hwcomm run --transfers FILE)\n" << format_transfer_sets(file);
    return out.str();
}

nlohmann::json resolved_sets_json(const TransferSetFile& file, const std::vector<ResolvedSet>& sets) {
    nlohmann::json j{{"schema", "hwcomm-transfer-sets"}, {"source", file.source}, {"sets", nlohmann::json::array()}};
    for (const ResolvedSet& s : sets) {
        nlohmann::json lanes = nlohmann::json::array();
        for (const ResolvedTransfer& t : s.transfers) {
            const LaneSpec l = t.lane();
            lanes.push_back({{"label", l.label}, {"src", l.src}, {"dst", l.dst}, {"on", t.on->id},
                             {"executor", t.line.executor_text()}, {"params", l.params}, {"line", t.line.line}});
        }
        j["sets"].push_back({{"name", s.name}, {"line", s.line}, {"bytes", s.bytes ? nlohmann::json(s.bytes) : nlohmann::json(nullptr)},
                             {"record_key", record_key_of(s)}, {"src", s.src_id}, {"dst", s.dst_id}, {"lanes", lanes}});
    }
    j["file"] = format_transfer_sets(file);
    return j;
}

}  // namespace hwcomm::cli
