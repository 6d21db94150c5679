#pragma once
// The method of `hwcomm run --transfers FILE`: one record per set of the
// file, its transfers the record's lanes, started together. A set of CPU
// lanes only is measured by the CPU lane group (every build); a set with a
// GPU lane by the session a CUDA build plugs in (methods/cuda/transfers),
// which adds CPU lanes of its own. Planned from the file only
// (run/transfer_plan.hpp): a run without --transfers has no record of it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "methods/group_characterizer.hpp"
#include "methods/transfers/transfer_set_check.hpp"

namespace hwcomm {

// What a CUDA build adds to transfer sets.
struct TransferSetGpuBackend {
    // A session for a set with at least one GPU lane; throws MeasurementError.
    std::function<std::unique_ptr<TransferSession>(const Graph&, const ResolvedSet&, std::size_t max_bytes,
                                                   const MethodOptions&)>
        make_session;
    // Free memory of a GPU now; nullopt when unknown.
    std::function<std::optional<std::uint64_t>(const Vertex&)> free_bytes;
    bool tma = false;  // tma executors are built
};

class TransferSetMethod final : public GroupCharacterizer {
public:
    explicit TransferSetMethod(TransferSetGpuBackend gpu = {}) : gpu_(std::move(gpu)) {}
    std::string name() const override;
    std::string description() const override;
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode, VertexKind::Gpu}; }
    std::map<std::string, std::string> parameter_docs() const override;
    // One set that does not apply: its reason says how to measure transfer sets.
    std::vector<EndpointSet> endpoint_sets(const Graph& graph) const override;
    std::vector<ParamSet> set_parameter_sets(const Graph&, const EndpointSet&, const MethodOptions&) const override {
        return {};
    }
    std::unique_ptr<TransferSession> prepare_set(const Graph& graph, const EndpointSet& set, const ParamSet& params,
                                                 std::size_t max_bytes, const MethodOptions& options) const override;

    // The machine a file is checked against before a run: this build's
    // executors and the memory free now (host MemAvailable, the GPUs' own).
    TransferSetMachine live_machine() const;
    // The same with the memory the graph states (a machine described by a file).
    TransferSetMachine described_machine() const;

private:
    TransferSetGpuBackend gpu_;
};

// The registry's transfer-set method; nullptr when it has none.
const TransferSetMethod* find_transfer_set_method(const Registry& registry);

}  // namespace hwcomm
