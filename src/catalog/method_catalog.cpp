#include "catalog/method_catalog.hpp"

#include <stdexcept>

namespace hwcomm {

const char* to_string(MethodFamily f) {
    switch (f) {
    case MethodFamily::CpuMemory: return "cpu-memory";
    case MethodFamily::Disk: return "disk";
    case MethodFamily::CopyEngine: return "copy-engine";
    case MethodFamily::SmCopy: return "sm-copy";
    case MethodFamily::TmaCopy: return "tma-copy";
    case MethodFamily::Duplex: return "duplex";
    case MethodFamily::Concurrency: return "concurrency";
    case MethodFamily::ZeroCopy: return "zero-copy";
    case MethodFamily::UnifiedMemory: return "unified-memory";
    case MethodFamily::Load: return "load";
    case MethodFamily::GpuMemory: return "gpu-memory";
    case MethodFamily::Mpi: return "mpi";
    case MethodFamily::TestFault: return "test-fault";
    }
    return "?";
}

const char* to_string(MethodBuild b) {
    switch (b) {
    case MethodBuild::Always: return "always";
    case MethodBuild::Cuda: return "cuda";
    case MethodBuild::Mpi: return "mpi";
    case MethodBuild::CudaTestOnly: return "cuda-test-only";
    }
    return "?";
}

const char* to_string(DuplexConvention c) {
    switch (c) {
    case DuplexConvention::None: return "none";
    case DuplexConvention::Sum: return "sum";
    case DuplexConvention::OneDirectionUnderOpposite: return "one-direction-under-opposite";
    }
    return "?";
}

const char* to_string(HeadlineKind k) {
    switch (k) {
    case HeadlineKind::PeakBandwidth: return "peak-bandwidth";
    case HeadlineKind::BestOverAxes: return "best-over-axes";
    case HeadlineKind::MetricAtLargest: return "metric-at-largest";
    case HeadlineKind::MetricMedian: return "metric-median";
    case HeadlineKind::TimeAtSmallest: return "time-at-smallest";
    }
    return "?";
}

const char* to_string(MethodView v) {
    switch (v) {
    case MethodView::Curve: return "curve";
    case MethodView::UnderLoadTable: return "under-load-table";
    case MethodView::PriorityTable: return "priority-table";
    case MethodView::GpumemOccupancy: return "gpumem-occupancy";
    case MethodView::GpumemStride: return "gpumem-stride";
    case MethodView::GpumemTimeline: return "gpumem-timeline";
    case MethodView::GpumemLatency: return "gpumem-latency";
    case MethodView::GpumemLoadedLatency: return "gpumem-loaded-latency";
    case MethodView::CpuLatency: return "cpu-latency";
    case MethodView::CpuLoadedLatency: return "cpu-loaded-latency";
    case MethodView::CpuMix: return "cpu-mix";
    }
    return "?";
}

const char* to_string(StudySeries s) {
    switch (s) {
    case StudySeries::None: return "none";
    case StudySeries::HostToDevice: return "host-to-device";
    case StudySeries::DeviceToHost: return "device-to-host";
    case StudySeries::PeerCopy: return "peer-copy";
    case StudySeries::DeviceCopy: return "device-copy";
    case StudySeries::HostStaging: return "host-staging";
    }
    return "?";
}

bool is_duplex(const MethodRow& row, const RowParams& params) {
    if (row.duplex.convention == DuplexConvention::None) return false;
    if (row.duplex.when_key.empty()) return true;
    const auto it = params.find(row.duplex.when_key);
    return it != params.end() && it->second == row.duplex.when_value;
}

MethodCatalog::MethodCatalog(std::vector<MethodRow> rows) : rows_(std::move(rows)) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].name.empty()) throw std::invalid_argument("method catalog: a row without a name");
        for (std::size_t j = 0; j < i; ++j)
            if (rows_[j].name == rows_[i].name)
                throw std::invalid_argument("method catalog: two rows named " + rows_[i].name);
    }
}

const MethodRow* MethodCatalog::find(const std::string& name) const {
    for (const MethodRow& r : rows_)
        if (r.name == name) return &r;
    return nullptr;
}

MethodCatalog MethodCatalog::with(std::vector<MethodRow> more) const {
    std::vector<MethodRow> all = rows_;
    for (MethodRow& r : more) all.push_back(std::move(r));
    return MethodCatalog(std::move(all));
}

const MethodCatalog& builtin_catalog() {
    // Built once, never changed: a constant, not mutable global state.
    static const MethodCatalog catalog = [] {
        std::vector<MethodRow> rows;
        for (auto family : {cpu_and_disk_rows, cuda_copy_rows, cuda_concurrency_and_load_rows, cuda_memory_rows,
                            transfer_set_rows, mpi_rows, test_fault_rows})
            for (MethodRow& r : family()) rows.push_back(std::move(r));
        return MethodCatalog(std::move(rows));
    }();
    return catalog;
}

}  // namespace hwcomm
