#pragma once
// The loads of gpumem-loaded-latency: copy-engine copies that keep the chased
// path busy while the pointer chase runs, as nvloom measures latency under
// load. Levels (the method's axis `load`):
//   none   no load: the reference, in the same record
//   same   copies moving data the way the chased loads' data travel (the
//          destination's memory to the chasing GPU; within one GPU, a copy in
//          its own memory)
//   both   and copies the other way too (within one GPU: a second copy)
// Each level's lanes are released by one gate just before the chase is
// launched; what they moved while it ran is the sample's U (load_gbps).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/graph.hpp"
#include "methods/characterizer.hpp"
#include "methods/cuda/common/blocking_gate.hpp"
#include "methods/cuda/lanes/background_load.hpp"

namespace hwcomm::cuda::gpumem {

const std::vector<std::string>& chase_load_levels();

class ChaseLoads {
public:
    // `chaser`: the GPU that chases; `memory`: whose memory it chases (itself, a peer GPU, a NUMA node).
    ChaseLoads(const Vertex& chaser, const Vertex& memory);
    // The widest level's lanes (the record's), and one level's.
    std::vector<LaneSpec> specs() const;
    // Runs `chase` (returns its seconds) with `level`'s lanes loading the path
    // and adds their U to `sample`; a load that ended before the chase did is
    // lengthened and the sample taken again (twice at most).
    void run(const std::string& level, const std::function<double()>& chase, Sample& sample);
    nlohmann::json context() const;

private:
    BackgroundLoad& load(const std::string& level);

    const Vertex* chaser_;
    const Vertex* memory_;
    BlockingGate gate_;  // before the loads: destroyed after their streams drained
    std::map<std::string, std::unique_ptr<BackgroundLoad>> loads_;
    std::map<std::string, double> last_s_;  // the chase's last time per level: the loads' plan
};

}  // namespace hwcomm::cuda::gpumem
