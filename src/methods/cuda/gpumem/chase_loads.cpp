#include "methods/cuda/gpumem/chase_loads.hpp"

#include "catalog/method_names.hpp"
#include "core/error.hpp"

namespace hwcomm::cuda::gpumem {

const std::vector<std::string>& chase_load_levels() {
    static const std::vector<std::string> levels{"none", "same", "both"};
    return levels;
}

namespace {

LoadRoute route(const Vertex& from, const Vertex& to) {
    LoadRoute r;
    r.src = &from;
    r.dst = &to;
    r.direction = from.kind == VertexKind::NumaNode ? LoadDirection::HostToGpu
                  : to.kind == VertexKind::NumaNode  ? LoadDirection::GpuToHost
                                                     : LoadDirection::GpuToGpu;
    r.spec = method_name::kGpumemLoadedLatency;
    return r;
}

}  // namespace

ChaseLoads::ChaseLoads(const Vertex& chaser, const Vertex& memory) : chaser_(&chaser), memory_(&memory) {}

BackgroundLoad& ChaseLoads::load(const std::string& level) {
    auto it = loads_.find(level);
    if (it != loads_.end()) return *it->second;
    // The chased loads' data travel from the memory to the chaser.
    std::vector<LoadRoute> routes{route(*memory_, *chaser_)};
    if (level == "both") routes.push_back(route(*chaser_, *memory_));
    else if (level != "same") throw MeasurementError("load must be none, same or both, not " + level);
    return *loads_.emplace(level, std::make_unique<BackgroundLoad>(routes)).first->second;
}

std::vector<LaneSpec> ChaseLoads::specs() const { return const_cast<ChaseLoads*>(this)->load("both").specs(); }

void ChaseLoads::run(const std::string& level, const std::function<double()>& chase, Sample& sample) {
    BackgroundLoad& bg = load(level);
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (attempt > 0) bg.lengthen();
        const auto last = last_s_.find(level);
        {
            GateRelease release(&gate_);  // the loads start together, just before the chase is launched
            bg.hold(gate_);
            bg.enqueue(last == last_s_.end() ? 0.0 : last->second);
        }
        const double seconds = chase();
        last_s_[level] = seconds;
        Sample loads;
        bg.account(seconds, 1, loads);
        if (bg.covered() || attempt == 2) {
            sample.lanes = std::move(loads.lanes);
            for (const auto& [k, v] : loads.extras) sample.extras[k] = v;
            return;
        }
    }
}

nlohmann::json ChaseLoads::context() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [level, bg] : loads_) j[level] = bg->context();
    j["how"] = "copy-engine copies on the chased path, released by one gate just before the chase is launched; "
               "same: the way the chased data travel (memory -> chasing GPU), both: and the other way";
    return j;
}

}  // namespace hwcomm::cuda::gpumem
