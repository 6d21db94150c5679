#pragma once
// A transfer set of CPU lanes only (hwcomm run --transfers, executor cpu):
// each lane a team of bound threads copying between buffers strictly bound
// to its source and destination NUMA nodes, every team released by one
// flag. Per sample: reset (untimed: a fresh pattern into every source, its
// complement into every destination), the timed batch, verify (every
// destination holds its lane's pattern). The sample's time is the common
// window on the host's steady clock, from the earliest team start to the
// latest team stop; each lane's own span gives its bandwidth.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "methods/characterizer.hpp"
#include "methods/cpu/host_copy_team.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"

namespace hwcomm {

struct CpuLaneDef {
    LaneSpec spec;
    int src_numa = -1, dst_numa = -1;  // OS indexes of the buffers' nodes
    int workers_numa = -1;             // the node whose cores copy
    unsigned threads = 0;              // 0: the node's slots shared among its lanes
};

class CpuLaneGroup final : public TransferSession {
public:
    CpuLaneGroup(const std::vector<CpuLaneDef>& lanes, std::size_t max_bytes, bool smt);

    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    std::vector<LaneSpec> lanes() const override;
    nlohmann::json context() const override;
    std::size_t max_bytes() const override { return max_bytes_; }

private:
    struct Lane {
        LaneSpec spec;
        NumaBuffer src, dst;
        std::unique_ptr<HostCopyTeam> team;
        std::uint64_t seed = 0;
    };
    Sample timed(std::size_t bytes, std::size_t reps);

    HwlocTopology topo_;  // first: buffers and teams borrow it
    std::size_t max_bytes_;
    std::vector<std::unique_ptr<Lane>> lanes_;
    std::atomic<std::uint64_t> release_{0};
    std::uint64_t seeds_ = 0;
    std::size_t reset_bytes_ = 0;
    std::map<std::size_t, std::size_t> reps_;
    nlohmann::json context_ = nlohmann::json::object();
};

}  // namespace hwcomm
