#pragma once
// How fast this process can read host memory now, asked between records: the
// same buffer on the same node, read by the same bound threads each time, so
// that a change between visits is the host's, not the probe's. Why: on GPU
// guests (16-32 cores of a shared host) the memory bandwidth a guest gets
// moves by 10-30% within seconds, every buffer together (docs/benchmarks.md,
// fifteenth session): a record's interval says how well its own samples fix
// their median, not how closely another run will land. The series goes into
// meta.run.host_read; summary says how far it moved.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/results.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

inline constexpr unsigned kHostReadMaxThreads = 16;
inline constexpr int kHostReadReadsPerVisit = 3;
inline constexpr double kHostReadEveryS = 2;  // at most one visit per this many seconds, beside the first and last

// Twice the last-level cache, so that the reads come from memory, within
// [64 MiB, 1 GiB]; 64 MiB when the cache is unknown (0).
std::uint64_t host_read_probe_bytes(std::uint64_t llc_bytes);

struct HostReadVisit {
    double t_s = 0;   // seconds since the probe was made
    double gbps = 0;  // 1e9 bytes read / s, the median of kHostReadReadsPerVisit reads
};

class HostReadProbe {
public:
    // `bytes` of node `numa`'s memory (touched and placed there), read by one
    // thread per core of the node, at most kHostReadMaxThreads. Throws
    // MeasurementError when the node has no cores or the allocation fails.
    HostReadProbe(std::unique_ptr<HwlocTopology> topo, int numa, std::uint64_t bytes);
    // Reads the buffer kHostReadReadsPerVisit times, each timed from the
    // moment every thread is ready to the last one's end, and keeps the visit.
    HostReadVisit visit();
    // Visits when kHostReadEveryS have passed since the last one (or none yet).
    void visit_if_due();
    const std::vector<HostReadVisit>& visits() const { return visits_; }
    // Seconds since the probe was made (the visits' time base).
    double elapsed_s() const;
    // For a record that ended just now (its context.elapsed_s long): the rates
    // of the last visit at or before its start and of every visit since, as
    // context.host_read_gbps, so analyze can tell a record measured while the
    // host read slowly. Nothing without visits.
    void annotate(Record& record) const;
    // The rates of the last visit at or before `seconds` ago and of every
    // visit since (what annotate keeps for a record that took `seconds`).
    nlohmann::json rates_over(double seconds) const;
    // {"numa", "bytes", "threads", "reads_per_visit", "visits": [{"t_s", "gbps"}]}
    nlohmann::json to_json() const;

private:
    std::unique_ptr<HwlocTopology> topo_;  // before buffer_, which borrows it
    int numa_;
    NumaBuffer buffer_;
    std::vector<CoreSlot> slots_;
    double started_s_;
    std::vector<HostReadVisit> visits_;
};

// This machine's probe: the first NUMA node with cores, sized by that node's
// last-level cache; null, with `why`, when it cannot be made (the run goes on
// without).
std::unique_ptr<HostReadProbe> make_host_read_probe(std::string& why);

// One run's series as `hwcomm run` and each `--mpi` rank keep it: the probe
// visited after each record and each representative measured again, the
// series kept in `meta`'s run.host_read (or why there is none). `meta` must
// outlive this object.
class HostReadSeries {
public:
    // No probe, and `skipped: why_none`, when why_none is not empty.
    explicit HostReadSeries(nlohmann::json& meta, const std::string& why_none = "");
    // The record run_plan appended just now: the probe's rates over its time.
    void after_record(Record& record);
    // A representative measured again: the rates over its context.recheck's time.
    void after_recheck(Record& representative);
    // The last visit, at the run's end.
    void finish();

private:
    void visit(bool when_due);
    nlohmann::json* meta_;
    std::unique_ptr<HostReadProbe> probe_;
};

}  // namespace hwcomm
