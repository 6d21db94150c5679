#include "run/device_loss.hpp"

#include <algorithm>
#include <cctype>

#include "core/device_error.hpp"

namespace hwcomm {

namespace {

std::string api_label(const std::string& api) {
    std::string out = api;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
    return out.empty() ? "device" : out;
}

}  // namespace

std::optional<DeviceFailure> device_failure_of(const std::exception& e) {
    const auto* d = dynamic_cast<const DeviceError*>(&e);
    if (!d) return std::nullopt;
    return DeviceFailure{d->api(), d->error_name(), d->code(), d->context_lost(), d->what()};
}

nlohmann::json device_failure_json(const DeviceFailure& f) {
    return {{"api", f.api}, {"name", f.error_name}, {"code", f.code}, {"context_lost", f.context_lost}};
}

bool needs_gpu(const PlannedRecord& planned) {
    const auto vs = planned.vertices();
    return std::any_of(vs.begin(), vs.end(), [](const Vertex* v) { return v && v->kind == VertexKind::Gpu; });
}

Record not_measured_record(const PlannedRecord& planned, const DeviceLoss& loss) {
    Record r;
    r.key = planned.key;
    r.method = planned.method->name();
    r.src = !planned.src_id.empty() ? planned.src_id : planned.src->id;
    r.dst = !planned.dst_id.empty() ? planned.dst_id : planned.dst->id;
    r.params = planned.params;
    r.status = "error";
    r.error = "not measured: the " + api_label(loss.failure.api) + " context was lost in " + loss.record_key + " (" +
              loss.failure.error_name + "); --resume measures it in a new process";
    r.error_type = kNotMeasuredDeviceLost;
    r.context["device_lost"] = {{"record", loss.record_key}, {"error", device_failure_json(loss.failure)}};
    return r;
}

bool is_not_measured(const Record& record) {
    return record.status == "error" && record.error_type == kNotMeasuredDeviceLost;
}

void store_record(ResultsFile& results, Record record) {
    const auto old = std::find_if(results.records.begin(), results.records.end(),
                                  [&](const Record& r) { return r.key == record.key; });
    if (old != results.records.end()) results.records.erase(old);
    results.records.push_back(std::move(record));
}

std::size_t keep_gpu_records_not_measured(const std::vector<const PlannedRecord*>& rest, const DeviceLoss& loss,
                                          ResultsFile& results) {
    std::size_t n = 0;
    for (const PlannedRecord* p : rest) {
        if (!needs_gpu(*p) || p->measured_as == "covered") continue;  // covered: measured only if its pair is promoted
        if (p->round.empty()) {
            store_record(results, not_measured_record(*p, loss));
            ++n;
        }
        for (const PlannedRecord& lane : p->round) {  // a round: its members are the records
            store_record(results, not_measured_record(lane, loss));
            ++n;
        }
    }
    return n;
}

std::string describe_loss(const DeviceLoss& loss, std::size_t records_not_measured) {
    return "the " + api_label(loss.failure.api) + " context is lost (" + loss.failure.error_name + " in " +
           loss.record_key + "): " + std::to_string(records_not_measured) +
           " GPU record(s) not measured, kept as errors; the other records go on";
}

}  // namespace hwcomm
