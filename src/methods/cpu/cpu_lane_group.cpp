#include "methods/cpu/cpu_lane_group.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/error.hpp"
#include "methods/cpu/cpu_session.hpp"
#include "methods/cpu/pattern.hpp"
#include "platform/clock.hpp"
#include "platform/host_info.hpp"
#include "platform/page_placement.hpp"

namespace hwcomm {

namespace {

// Two buffers per lane within half of the memory the host has left.
std::size_t capped_bytes(std::size_t asked, std::size_t lanes) {
    const std::uint64_t avail = available_memory_bytes();
    if (avail == 0) return asked;
    return std::min<std::size_t>(asked, static_cast<std::size_t>(avail / 2 / (2 * std::max<std::size_t>(1, lanes))));
}

nlohmann::json buffer_json(const NumaBuffer& b) {
    nlohmann::json j = placement_to_json(b.placement());
    j["bytes"] = b.size();
    return j;
}

}  // namespace

CpuLaneGroup::CpuLaneGroup(const std::vector<CpuLaneDef>& defs, std::size_t max_bytes, bool smt)
    : max_bytes_(capped_bytes(max_bytes, defs.size())) {
    if (defs.empty()) throw MeasurementError("internal: a CPU lane group without lanes");
    if (max_bytes_ == 0) throw MeasurementError("no host memory left for the CPU lanes' buffers");
    std::vector<TeamRequest> requests;
    for (const CpuLaneDef& d : defs) requests.push_back({d.workers_numa, d.threads});
    std::vector<std::string> notes;
    const auto slots = assign_team_slots(topo_, requests, smt, notes);
    nlohmann::json lanes = nlohmann::json::array();
    bool verified = true;
    for (std::size_t i = 0; i < defs.size(); ++i) {
        auto lane = std::make_unique<Lane>(Lane{defs[i].spec, NumaBuffer(topo_, defs[i].src_numa, max_bytes_),
                                                NumaBuffer(topo_, defs[i].dst_numa, max_bytes_), nullptr, 0});
        lane->team = std::make_unique<HostCopyTeam>(topo_, slots[i]);
        nlohmann::json where = nlohmann::json::array();
        for (const CoreSlot& s : slots[i]) where.push_back({{"core", s.core}, {"pu", s.pu}});
        lanes.push_back({{"label", defs[i].spec.label}, {"workers_node", defs[i].workers_numa},
                         {"threads", slots[i].size()}, {"slots", where},
                         {"src_buffer", buffer_json(lane->src)}, {"dst_buffer", buffer_json(lane->dst)}});
        verified = verified && lane->src.placement().verified && lane->dst.placement().verified;
        lanes_.push_back(std::move(lane));
    }
    context_["cpu_lanes"] = lanes;
    context_["placement_verified"] = verified;
    context_["binding"] = {{"smt", smt}, {"unit", smt ? "pu" : "core"}};
    if (!notes.empty()) context_["binding_notes"] = notes;
    context_["timing_mode"] = "wall";
    context_["gate"] = "every lane's threads spin on one release flag once armed; one store releases them all";
    context_["lane_timing"] = "host steady clock: each lane from its first thread's start to its last thread's stop; "
                              "the window from the earliest lane start to the latest lane stop";
}

std::vector<LaneSpec> CpuLaneGroup::lanes() const {
    std::vector<LaneSpec> out;
    for (const auto& l : lanes_) out.push_back(l->spec);
    return out;
}

nlohmann::json CpuLaneGroup::context() const {
    nlohmann::json c = context_;
    for (const auto& l : lanes_)
        if (const std::string note = l->team->binding_note(); !note.empty()) c["binding_failure"] = l->spec.label + ": " + note;
    return c;
}

void CpuLaneGroup::reset(std::size_t bytes, const std::string&) {
    if (bytes > max_bytes_) throw MeasurementError("size " + std::to_string(bytes) + " exceeds the lanes' buffers");
    for (auto& l : lanes_) {
        l->seed = ++seeds_;
        fill_pattern(l->src.data(), bytes, l->seed);
        poison(l->dst.data(), bytes, l->seed);
    }
    reset_bytes_ = bytes;
}

Sample CpuLaneGroup::timed(std::size_t bytes, std::size_t reps) {
    const std::uint64_t ticket = release_.load() + 1;
    for (auto& l : lanes_) l->team->arm(l->dst.data(), l->src.data(), bytes, reps, &release_, ticket);
    release_.store(ticket, std::memory_order_release);
    std::vector<HostCopyTeam::Span> spans;
    for (auto& l : lanes_) spans.push_back(l->team->wait());
    double first_start = spans.front().start_s, last_start = first_start;
    double first_stop = spans.front().stop_s, last_stop = first_stop;
    for (const auto& s : spans) {
        first_start = std::min(first_start, s.start_s), last_start = std::max(last_start, s.start_s);
        first_stop = std::min(first_stop, s.stop_s), last_stop = std::max(last_stop, s.stop_s);
    }
    Sample s;
    s.repetitions = reps;
    s.seconds = last_stop - first_start;
    s.bytes_per_rep = static_cast<double>(bytes) * static_cast<double>(lanes_.size());
    for (std::size_t i = 0; i < lanes_.size(); ++i)
        s.lanes.push_back({lanes_[i]->spec.label, spans[i].seconds(), static_cast<double>(bytes)});
    s.extras["start_skew_max_s"] = last_start - first_start;
    s.extras["stop_skew_max_s"] = last_stop - first_stop;
    return s;
}

void CpuLaneGroup::warmup(std::size_t bytes, const std::string& variant) {
    // As the CPU methods: the first pass warms caches and TLBs, then enough
    // repetitions that one sample lasts kMinSampleSeconds.
    reset(bytes, variant);
    timed(bytes, 1);
    const double one = std::max(timed(bytes, 1).seconds, 1e-9);
    const auto reps = static_cast<std::size_t>(std::clamp(std::ceil(1.2 * kMinSampleSeconds / one), 1.0, 1e6));
    reps_[bytes] = reps;
}

Sample CpuLaneGroup::measure(std::size_t bytes, const std::string& variant) {
    if (reset_bytes_ != bytes) reset(bytes, variant);
    const auto it = reps_.find(bytes);
    return timed(bytes, it == reps_.end() ? 1 : it->second);
}

std::string CpuLaneGroup::verify(std::size_t bytes, const std::string&) {
    if (reset_bytes_ != bytes) return "nothing was transferred at " + std::to_string(bytes) + " bytes before verify";
    std::string msg;
    for (const auto& l : lanes_) {
        const std::string wrong = pattern_mismatch(l->dst.data(), bytes, l->seed);
        if (!wrong.empty()) msg += (msg.empty() ? "" : "; ") + (lanes_.size() > 1 ? l->spec.label + ": " : "") + wrong;
    }
    return msg;
}

}  // namespace hwcomm
